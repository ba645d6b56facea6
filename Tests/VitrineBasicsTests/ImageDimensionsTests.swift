import Foundation
import SampleAPI
import Testing

@testable import VitrineBasics

@Suite struct ImageDimensionsTests {
    @Test func readsEverySampleJPEGsTrueSize() {
        for image in SampleImages.bundled.all {
            let bytes = [UInt8](image.bytes)
            #expect(ImageDimensions.read(bytes, format: .jpeg)! == (image.width, image.height))
        }
    }

    @Test func readsPNGAndGIFHeaders() {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        png += Array("IHDR".utf8) + [0, 0, 1, 0x2C, 0, 0, 0, 0xC8]
        #expect(ImageDimensions.read(png, format: .png)! == (300, 200))
        let gif: [UInt8] = Array("GIF89a".utf8) + [0x40, 0x01, 0xF0, 0x00]
        #expect(ImageDimensions.read(gif, format: .gif)! == (320, 240))
    }

    @Test func truncatedOrHostileHeadersGiveNothing() {
        #expect(ImageDimensions.read([0xFF, 0xD8, 0xFF, 0xE0, 0x00], format: .jpeg) == nil)
        #expect(ImageDimensions.read([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x00, 0, 0, 0, 0, 0, 0], format: .jpeg) == nil)
        #expect(ImageDimensions.read([UInt8](repeating: 0xFF, count: 64), format: .jpeg) == nil)
        #expect(ImageDimensions.read([UInt8](repeating: 0, count: 8), format: .png) == nil)
    }
}

@Suite struct FileSizeTests {
    @Test(arguments: [
        (40 << 20, "40 MiB"), (100_000, "100000 bytes"), (100 << 10, "100 KiB"), (1, "1 byte"), (1536, "1536 bytes"),
    ])
    func limitsReadAsTheyWereGiven(bytes: Int, text: String) {
        #expect(FileSize.describe(bytes) == text)
    }
}

@Suite struct ImageSizeLimitTests {
    /// The first 24 bytes of a PNG that declares `width` × `height`.
    func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for value in [width, height] { withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) } }
        return bytes + [8, 2, 0, 0, 0]
    }

    @Test(arguments: [
        (UInt32(100_000), UInt32(100_000), true), (40_000, 10, true), (20_000, 20_000, true),
        (4_000, 3_000, false), (32_767, 8_000, false), (UInt32.max, UInt32.max, true),
    ])
    func declaredSizesBeyondWhatBrowsersDecodeAreRefused(width: UInt32, height: UInt32, refused: Bool) throws {
        let size = try #require(ImageDimensions.read(pngHeader(width: width, height: height), format: .png))
        #expect(size.width == Int(width) && size.height == Int(height))
        #expect((ImageDimensions.refusal(width: size.width, height: size.height) != nil) == refused)
    }
}
