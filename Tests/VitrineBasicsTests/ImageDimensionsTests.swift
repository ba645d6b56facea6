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

    /// Browsers show a JPEG turned as its EXIF orientation says; orientations 5 to 8 turn it a quarter, so the
    /// width and height a page gives it (and its tile's aspect ratio) are the stored ones swapped.
    @Test(arguments: 1...8, [true, false])
    func aJPEGTurnedAQuarterByItsEXIFOrientationHasItsSidesSwapped(orientation: Int, littleEndian: Bool) throws {
        let image = try #require(SampleImages.bundled.all.first { $0.width != $0.height })
        let turned = JPEGOrientation.insert(orientation, into: [UInt8](image.bytes), littleEndian: littleEndian)
        #expect(ImageCompleteness.problem(turned, format: .jpeg) == nil)
        let size = try #require(ImageDimensions.read(turned, format: .jpeg))
        let quarter = (5...8).contains(orientation)
        #expect(size == (quarter ? (image.height, image.width) : (image.width, image.height)))
    }

    /// EXIF data is the camera's, and anyone's: a directory or entry that points outside its segment, a wrong type,
    /// a cut-short header or an orientation out of range leave the stored size, and never read past the bytes.
    @Test func hostileEXIFDataLeavesTheStoredSize() throws {
        let image = try #require(SampleImages.bundled.all.first { $0.width != $0.height })
        let bytes = [UInt8](image.bytes)
        let stored = (image.width, image.height)
        let good = JPEGOrientation.insert(6, into: bytes)
        // The APP1 segment starts at 2; its TIFF header at 2 + 4 + 6 = 12, its directory at 12 + 8 = 20.
        var damaged: [[UInt8]] = []
        for (offset, value) in [
            (16, 0xFF), (17, 0xFF), (18, 0xFF), (19, 0x7F),  // the directory far past the segment
            (20, 0),  // no entry
            (24, 4),  // the orientation as a LONG
            (26, 2),  // two values
            (12, 0x58),  // neither II nor MM
            (14, 43),  // not TIFF's 42
            (6, 0x65),  // "exif"
        ] {
            var copy = good
            copy[offset] = UInt8(value)
            damaged.append(copy)
        }
        damaged.append(JPEGOrientation.insert(9, into: bytes))
        damaged.append(JPEGOrientation.insert(0, into: bytes))
        damaged.append(JPEGOrientation.insert(0xFFFF, into: bytes))
        for copy in damaged {
            #expect(ImageDimensions.read(copy, format: .jpeg)! == stored)
        }
        // 65,535 entries said in a segment of one: only those within the segment are read.
        var many = good
        (many[20], many[21]) = (0xFF, 0xFF)
        #expect(ImageDimensions.read(many, format: .jpeg)! == (image.height, image.width))
        // Cut short anywhere in the segment: a size or nothing, never a crash.
        for end in 2..<40 {
            _ = ImageDimensions.read(Array(good[0..<end]), format: .jpeg)
        }
        for end in 6..<40 {
            #expect((ImageDimensions.exifOrientation(good, segment: 6..<end) == 6) == (end >= 32), "\(end)")
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
