import Testing

@testable import VitrineBasics

/// An AVIF's structure as an ISO base media file: built box by box, so that each test can cut or bend one.
enum AVIFBoxes {
    static func be32(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(value).bigEndian, Array.init) }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(8 + payload.count) + Array(type.utf8) + payload
    }

    static func file(brand: String = "avif", width: Int = 640, height: Int = 427, mdat: Int = 300) -> [UInt8] {
        let ftyp = box("ftyp", Array(brand.utf8) + [0, 0, 0, 0] + Array("avifmif1miaf".utf8))
        let ispe = box("ispe", [0, 0, 0, 0] + be32(width) + be32(height))
        let meta = box(
            "meta", [0, 0, 0, 0] + box("hdlr", [UInt8](repeating: 0, count: 20)) + box("iprp", box("ipco", ispe)))
        return ftyp + meta + box("mdat", [UInt8](repeating: 0x5A, count: mdat))
    }
}

@Suite struct AVIFBoxesTests {
    @Test func recognisesAVIFByItsBrand() {
        #expect(ImageFormat.sniff(AVIFBoxes.file()) == .avif)
        #expect(ImageFormat.sniff(AVIFBoxes.file(brand: "avis")) == .avif)
        #expect(ImageFormat.sniff(AVIFBoxes.file(brand: "heic")) == nil)
        #expect(ImageFormat.sniff(AVIFBoxes.file(brand: "mp41")) == nil)
        #expect(ImageFormat.avif.mediaType == "image/avif" && ImageFormat.avif.fileExtension == "avif")
    }

    @Test func anAVIFCutShortOrWithBoxesPastItsEndIsIncomplete() {
        let whole = AVIFBoxes.file()
        #expect(ImageCompleteness.problem(whole, format: .avif) == nil)
        for length in stride(from: 1, to: whole.count, by: 7) {
            #expect(ImageCompleteness.problem(Array(whole.prefix(length)), format: .avif) != nil, "cut at \(length)")
        }
        // The last box "to the end of the file" (size 0) is whole however long.
        var toTheEnd = whole
        toTheEnd.replaceSubrange(whole.count - 308..<whole.count - 304, with: [0, 0, 0, 0])
        #expect(ImageCompleteness.problem(toTheEnd, format: .avif) == nil)
        // A 64-bit size far past the file, and a size smaller than a box's header.
        var huge = whole
        huge.replaceSubrange(whole.count - 308..<whole.count - 304, with: [0, 0, 0, 1])
        huge += [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(ImageCompleteness.problem(huge, format: .avif) != nil)
        var tiny = whole
        tiny.replaceSubrange(whole.count - 308..<whole.count - 304, with: [0, 0, 0, 4])
        #expect(ImageCompleteness.problem(tiny, format: .avif) != nil)
    }

    @Test func readsAnAVIFsSizeFromItsPropertiesAndNothingFromHostileBoxes() {
        let whole = AVIFBoxes.file(width: 510, height: 340)
        let size = ImageDimensions.read(whole, format: .avif)
        #expect(size?.width == 510 && size?.height == 340)
        #expect(ImageDimensions.read(AVIFBoxes.file(width: 0, height: 340), format: .avif) == nil)
        let withoutExtent = AVIFBoxes.box("ftyp", Array("avif".utf8)) + AVIFBoxes.box("meta", [0, 0, 0, 0])
        #expect(ImageDimensions.read(withoutExtent, format: .avif) == nil)
        // Every prefix, and every byte bent to each value that matters to a box header (sizes below, at and past
        // a header, and the largest), gives a size or nothing: never a read past the bytes, never a trap. A random
        // bending once found a `meta` box too small for its version and flags, which trapped.
        for length in 0..<whole.count { _ = ImageDimensions.read(Array(whole.prefix(length)), format: .avif) }
        for index in whole.indices {
            for value: UInt8 in [0, 1, 3, 4, 7, 8, 9, 11, 12, 16, 0x7F, 0xFF] {
                var bent = whole
                bent[index] = value
                _ = ImageDimensions.read(bent, format: .avif)
                _ = ImageCompleteness.problem(bent, format: .avif)
            }
        }
    }

    @Test func aMetaBoxTooSmallForItsVersionAndFlagsGivesNoSize() {
        let tiny = AVIFBoxes.box("ftyp", Array("avif".utf8)) + AVIFBoxes.box("meta", [0, 0])
        #expect(ImageDimensions.read(tiny, format: .avif) == nil)
        #expect(ImageCompleteness.problem(tiny, format: .avif) == nil)
    }
}
