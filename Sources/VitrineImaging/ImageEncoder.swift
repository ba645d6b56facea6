internal import CVips
import VitrineBasics

/// Why an image could not be re-encoded.
package enum ImageEncodingError: Error, Sendable, Hashable {
    /// libvips is not installed, or not one Vitrine can use.
    case libraryUnavailable(reason: String)
    /// The image is larger than the encoder takes (`ImageEncoder.largestPixelCount`).
    case tooLarge(width: Int, height: Int)
    /// libvips could not decode the image or encode it; its own words.
    case failed(reason: String)

    /// A few words for a warning.
    package var reason: String {
        switch self {
        case .libraryUnavailable(let reason): "libvips could not be loaded (\(reason))"
        case .tooLarge(let width, let height): "\(width) × \(height) pixels is more than it re-encodes"
        case .failed(let reason): reason
        }
    }
}

/// One kind of re-encoded copy: its format, and the screens it is for.
package struct EncodingTarget: Sendable, Hashable {
    /// Screens of at least this many device pixels per CSS pixel are dense: phones, tablets, laptops at 2x.
    package static let denseScreens = 2

    package var format: ImageFormat
    /// For screens with at least this many device pixels per CSS pixel only; nil for any screen.
    package var minimumDensity: Int?

    package init(format: ImageFormat, minimumDensity: Int? = nil) {
        self.format = format
        self.minimumDensity = minimumDensity
    }
}

/// An image re-encoded: its bytes and pixel size.
package struct EncodedImage: Sendable, Hashable {
    package var bytes: [UInt8]
    package var width: Int
    package var height: Int
}

/// Re-encodes downloaded JPEG and PNG images as AVIF or WebP with libvips: the same pixels, upright and in sRGB,
/// without metadata, in fewer bytes.
package struct ImageEncoder: Sendable {
    /// The formats it writes.
    package static let targets: [ImageFormat] = [.avif, .webp]

    /// The formats it reads: a GIF may be animated and a WebP or AVIF is small already.
    package static let sources: [ImageFormat] = [.jpeg, .png]

    /// The largest image it re-encodes, in pixels (16.7 megapixels, 4096 × 4096): AVIF's encoder needs about
    /// 70 MB for a 1280-px photo and grows with the pixels, and an API's largest rendition is smaller
    /// (BENCHMARKS.md, "Figures behind the code").
    package static let largestPixelCount = 4096 * 4096

    /// The memory the copies encoded at once may need together (512 MB), whatever the number of cores: a 16-core
    /// runner encodes nine 1280-px photos at once, and an image of 4096 × 4096 pixels alone.
    package static let memoryBudget = 512 << 20

    /// The memory libvips is expected to need to encode an image of `width` × `height` pixels: 28 bytes a pixel
    /// (decoded pixels, AVIF's encoder buffers) and 24 MB besides, an image of unknown size taken as the largest it
    /// encodes. Measured with Debian's `vips` command (libvips 8.14) encoding AVIF as a build does: 373 MB of resident
    /// memory at most for a 4096 × 4096 PNG of noise (estimated 495 MB), 74 MB for a 1280 × 1280 JPEG (estimated 70 MB).
    package static func estimatedMemory(width: Int?, height: Int?) -> Int {
        guard let width, let height, width > 0, height > 0 else { return estimatedMemory(pixels: largestPixelCount) }
        return estimatedMemory(pixels: min(width * height, largestPixelCount))
    }

    private static func estimatedMemory(pixels: Int) -> Int { (24 << 20) + 28 * pixels }

    package init() {}

    /// Loads libvips, if it is not loaded yet; throws `libraryUnavailable` when it cannot be.
    package static func load() throws(ImageEncodingError) {
        _ = try VipsLibrary.shared.get()
    }

    /// The copies made for `formats`, in the order a page offers them: for AVIF, one for dense screens first
    /// (`EncodingTarget.denseScreens`), then one for any screen.
    package static func targets(for formats: [ImageFormat]) -> [EncodingTarget] {
        formats.flatMap { format in
            format == .avif
                ? [
                    EncodingTarget(format: format, minimumDensity: EncodingTarget.denseScreens),
                    EncodingTarget(format: format),
                ]
                : [EncodingTarget(format: format)]
        }
    }

    /// What the encoder's output depends on besides the image: the settings of each copy, in a few characters, for
    /// the cache's key of a re-encoded image. A change of settings changes it, so that nothing encoded with the old
    /// ones is taken for the new.
    package static func settingsKey(_ target: EncodingTarget) -> String {
        let density = target.minimumDensity.map { "@\($0)x" } ?? ""
        return "\(target.format.rawValue)\(density):\(options(target) ?? "")"
    }

    /// libvips' save options per copy: AVIF (AV1 in HEIF) at libvips' default quality and effort 2 of 9, WebP at
    /// its default quality and effort (BENCHMARKS.md, "Image formats"). AVIF for dense screens at quality 35: their
    /// pixels are a half or a third of a CSS pixel wide, and hide the coarser detail (BENCHMARKS.md, "Figures behind
    /// the code").
    static func options(_ target: EncodingTarget) -> String? {
        switch (target.format, target.minimumDensity) {
        case (.avif, nil): ".heif[compression=av1,Q=50,effort=2,strip]"
        case (.avif, .some(EncodingTarget.denseScreens)): ".heif[compression=av1,Q=35,effort=2,strip]"
        case (.webp, nil): ".webp[Q=75,effort=4,strip]"
        default: nil
        }
    }

    /// `bytes` (a whole JPEG or PNG of `width` × `height` pixels) as `target` says.
    package func encode(_ bytes: [UInt8], width: Int?, height: Int?, as target: EncodingTarget)
        throws(ImageEncodingError) -> EncodedImage
    {
        guard let options = Self.options(target) else {
            throw .failed(reason: "Vitrine does not write \(target.format.rawValue.uppercased()) images like that")
        }
        if let width, let height, width * height > Self.largestPixelCount {
            throw .tooLarge(width: width, height: height)
        }
        let library = try VipsLibrary.shared.get()
        var api = library.api
        var output: UnsafeMutableRawPointer?
        var length = 0
        var encodedWidth: Int32 = 0
        var encodedHeight: Int32 = 0
        var message = [CChar](repeating: 0, count: 512)
        let encoded = bytes.withUnsafeBytes { input in
            vitrine_vips_encode(
                &api, input.baseAddress, input.count, options, &output, &length, &encodedWidth, &encodedHeight,
                &message, message.count)
        }
        guard encoded == 1, let output else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .failed(reason: Self.firstLine(reason))
        }
        defer { api.free(output) }
        return EncodedImage(
            bytes: Array(UnsafeRawBufferPointer(start: output, count: length)), width: Int(encodedWidth),
            height: Int(encodedHeight))
    }

    /// libvips' messages end with a newline, one per line; the first says what failed.
    private static func firstLine(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return line.isEmpty ? "libvips could not encode it" : line
    }
}
