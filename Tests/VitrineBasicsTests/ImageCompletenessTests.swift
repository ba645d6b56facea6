import Foundation
import SampleAPI
import Testing

@testable import VitrineBasics

/// Issue 24, item 10: an image cut short, with a `Content-Length` to match, was cached and published as a whole one.
@Suite struct ImageCompletenessTests {
    /// A 2 × 2 PNG: signature, IHDR, IDAT, IEND.
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
        0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x08, 0x02, 0x00, 0x00, 0x00, 0xFD, 0xD4, 0x9A, 0x73, 0x00, 0x00, 0x00,
        0x11, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0x00, 0x44, 0x60, 0xE2, 0x3F, 0x03, 0x00,
        0x1D, 0xF0, 0x03, 0xFD, 0xA0, 0x33, 0x09, 0x89, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42,
        0x60, 0x82,
    ]
    /// A 1 × 1 GIF: header, two-colour table, graphic control extension, image, trailer.
    static let gif: [UInt8] = [
        0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x00, 0x00,
        0x00, 0x21, 0xF9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x2C, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
        0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B,
    ]
    /// A 1 × 1 lossless WebP.
    static let webp: [UInt8] = [
        0x52, 0x49, 0x46, 0x46, 0x1A, 0x00, 0x00, 0x00, 0x57, 0x45, 0x42, 0x50, 0x56, 0x50, 0x38, 0x4C, 0x0D, 0x00,
        0x00, 0x00, 0x2F, 0x00, 0x00, 0x00, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xFE, 0x07, 0x00,
    ]

    @Test func everyWholeSampleJPEGPassesWithOrWithoutBytesAfterItsEndMarker() {
        for image in SampleImages.bundled.all {
            let bytes = [UInt8](image.bytes)
            #expect(ImageCompleteness.problem(bytes, format: .jpeg) == nil, "\(image)")
            #expect(ImageCompleteness.problem(bytes + [0, 0, 0x12, 0xFF], format: .jpeg) == nil)
        }
    }

    @Test func aJPEGCutAnywhereIsIncomplete() throws {
        let bytes = [UInt8](try #require(SampleImages.bundled.all.first).bytes)
        let scan = try #require((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        for length in [3, 20, 600, scan, scan + 4, scan + 40, bytes.count / 2, bytes.count - 2, bytes.count - 1] {
            let problem = ImageCompleteness.problem(Array(bytes.prefix(length)), format: .jpeg)
            #expect(problem?.hasPrefix("Incomplete image: the JPEG ") == true, "cut at \(length) of \(bytes.count)")
        }
        #expect(
            ImageCompleteness.problem(Array(bytes.prefix(scan)), format: .jpeg)
                == "Incomplete image: the JPEG ends before its image data")
        #expect(
            ImageCompleteness.problem(Array(bytes.prefix(bytes.count - 2)), format: .jpeg)
                == "Incomplete image: the JPEG ends before its end marker")
    }

    /// The small images are cut at every length, so each of their blocks is cut at each of its bytes.
    @Test(arguments: [(ImageFormat.png, png), (.gif, gif), (.webp, webp)])
    func aSmallImageIsWholeOnlyUncut(format: ImageFormat, bytes: [UInt8]) {
        #expect(ImageFormat.sniff(bytes) == format)
        #expect(ImageCompleteness.problem(bytes, format: format) == nil)
        for length in 12..<bytes.count {
            let problem = ImageCompleteness.problem(Array(bytes.prefix(length)), format: format)
            #expect(problem?.hasPrefix("Incomplete image: ") == true, "\(format) cut at \(length) of \(bytes.count)")
        }
    }

    @Test func hostileStructuresAreRefusedWithoutRunningAway() {
        // A segment length below its own two bytes, and a JPEG that ends before it starts a scan.
        #expect(ImageCompleteness.problem([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01, 0xFF, 0xD9], format: .jpeg) != nil)
        #expect(ImageCompleteness.problem([0xFF, 0xD8, 0xFF, 0xD9], format: .jpeg) != nil)
        #expect(ImageCompleteness.problem([0xFF, 0xD8] + Array(repeating: 0xFF, count: 4096), format: .jpeg) != nil)
        // A PNG chunk claiming 4 GiB, a GIF of unknown blocks, a WebP that claims more than it has.
        let hugeChunk = Array(Self.png.prefix(8)) + [0xFF, 0xFF, 0xFF, 0xFF] + Array("IDAT".utf8)
        #expect(ImageCompleteness.problem(hugeChunk, format: .png) != nil)
        #expect(ImageCompleteness.problem(Array(Self.gif.prefix(19)) + [0x99, 0x3B], format: .gif) != nil)
        var webp = Self.webp
        webp[4] = 0xFF
        #expect(ImageCompleteness.problem(webp, format: .webp) != nil)
    }
}
