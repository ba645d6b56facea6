import SampleAPI
import Testing
import VitrineBasics
import VitrineImaging

@Suite struct ImageEncoderTests {
    /// A bundled 640-px JPEG of the sample API.
    static let photo = SampleImages.bundled.image(theme: "city", number: 1, size: 640)!
    static let bytes = Array(photo.bytes)
    /// Every copy a build can ask for: AVIF for dense screens, AVIF, WebP.
    static let everyTarget = ImageEncoder.targets(for: ImageEncoder.targets)

    @Test(arguments: everyTarget)
    func encodesTheSamePixelsInFewerBytes(_ target: EncodingTarget) throws {
        let photo = Self.photo
        let format = target.format
        let encoded = try ImageEncoder().encode(Self.bytes, width: photo.width, height: photo.height, as: target)
        #expect(ImageFormat.sniff(encoded.bytes) == format)
        #expect(encoded.width == photo.width && encoded.height == photo.height)
        #expect(encoded.bytes.count < Self.bytes.count)
        let size = try #require(ImageDimensions.read(encoded.bytes, format: format))
        #expect(size.width == photo.width && size.height == photo.height)
        #expect(ImageCompleteness.problem(encoded.bytes, format: format) == nil)
    }

    @Test(arguments: everyTarget)
    func givesTheSameBytesEveryTime(_ target: EncodingTarget) throws {
        let photo = Self.photo
        let first = try ImageEncoder().encode(Self.bytes, width: photo.width, height: photo.height, as: target)
        let second = try ImageEncoder().encode(Self.bytes, width: photo.width, height: photo.height, as: target)
        #expect(first.bytes == second.bytes)
    }

    /// The photo with an EXIF orientation of 6 ("rotate 90° clockwise to show"), as cameras write it.
    static let rotated: [UInt8] = {
        let header: [UInt8] = Array("MM".utf8) + [0, 0x2A, 0, 0, 0, 8]
        let orientation: [UInt8] = [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0]
        let tiff = header + [0, 1] + orientation + [0, 0, 0, 0]
        let app1 = Array("Exif".utf8) + [0, 0] + tiff
        return [0xFF, 0xD8, 0xFF, 0xE1, 0, UInt8(app1.count + 2)] + app1 + bytes.dropFirst(2)
    }()

    @Test(arguments: everyTarget)
    func turnsAPhotoUprightAsItsEXIFOrientationSays(_ target: EncodingTarget) throws {
        let photo = Self.photo
        let format = target.format
        let encoded = try ImageEncoder().encode(Self.rotated, width: photo.width, height: photo.height, as: target)
        #expect(encoded.width == photo.height && encoded.height == photo.width)
        let size = try #require(ImageDimensions.read(encoded.bytes, format: format))
        #expect(size.width == photo.height && size.height == photo.width)
        // The original's size in the model is the one shown too, so a picture's copies and original agree.
        let original = try #require(ImageDimensions.read(Self.rotated, format: .jpeg))
        #expect(original.width == size.width && original.height == size.height)
    }

    @Test func refusesWhatIsNoImageWithLibvipsReason() {
        let garbage = Array("<html>not an image</html>".utf8)
        #expect {
            try ImageEncoder().encode(garbage, width: nil, height: nil, as: EncodingTarget(format: .avif))
        } throws: { error in
            guard case .failed(let reason) = error as? ImageEncodingError else { return false }
            return !reason.isEmpty && !reason.contains("\n")
        }
    }

    @Test func refusesAJPEGCutShort() {
        let photo = Self.photo
        let half = Array(Self.bytes.prefix(Self.bytes.count / 2))
        #expect(throws: ImageEncodingError.self) {
            try ImageEncoder().encode(half, width: photo.width, height: photo.height, as: EncodingTarget(format: .webp))
        }
    }

    @Test func refusesAnImageLargerThanItEncodesBeforeDecodingIt() {
        #expect(throws: ImageEncodingError.tooLarge(width: 8000, height: 6000)) {
            try ImageEncoder().encode([0xFF, 0xD8, 0xFF], width: 8000, height: 6000, as: EncodingTarget(format: .avif))
        }
    }

    @Test func writesOnlyTheFormatsItKnows() {
        #expect(throws: ImageEncodingError.self) {
            try ImageEncoder().encode(Self.bytes, width: nil, height: nil, as: EncodingTarget(format: .gif))
        }
    }

    @Test func keysChangeWithTheFormatAndTheScreens() {
        let keys = Self.everyTarget.map(ImageEncoder.settingsKey)
        #expect(Set(keys).count == 3)
        #expect(keys.map { $0.prefix { $0 != ":" } } == ["avif@2x", "avif", "webp"])
    }

    @Test func aPageOffersTheAVIFForDenseScreensBeforeTheOneForAnyScreen() {
        #expect(
            ImageEncoder.targets(for: [.webp, .avif]) == [
                EncodingTarget(format: .webp), EncodingTarget(format: .avif, minimumDensity: 2),
                EncodingTarget(format: .avif),
            ])
    }

    /// The copy for dense screens is smaller than the one for any screen: the point of making it.
    @Test func theAVIFForDenseScreensIsSmallerThanTheOneForAnyScreen() throws {
        let photo = Self.photo
        let dense = try ImageEncoder().encode(
            Self.bytes, width: photo.width, height: photo.height, as: EncodingTarget(format: .avif, minimumDensity: 2))
        let any = try ImageEncoder().encode(
            Self.bytes, width: photo.width, height: photo.height, as: EncodingTarget(format: .avif))
        #expect(Double(dense.bytes.count) < 0.85 * Double(any.bytes.count))
    }
}
