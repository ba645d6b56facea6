import Foundation
import SampleAPI
import Testing

@testable import VitrineCore

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
