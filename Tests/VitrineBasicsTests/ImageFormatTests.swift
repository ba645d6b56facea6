import Testing

@testable import VitrineBasics

@Suite struct ImageFormatTests {
    @Test func recognisesEachFormatBySignature() {
        #expect(ImageFormat.sniff([0xFF, 0xD8, 0xFF, 0xE0, 0, 0]) == .jpeg)
        #expect(ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .png)
        #expect(ImageFormat.sniff(Array("GIF89a....".utf8)) == .gif)
        #expect(ImageFormat.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
    }

    @Test func rejectsEverythingElse() {
        #expect(ImageFormat.sniff(Array("<html><body>not an image</body></html>".utf8)) == nil)
        #expect(ImageFormat.sniff([UInt8]()) == nil)
        #expect(ImageFormat.sniff([0xFF, 0xD8]) == nil)
        #expect(ImageFormat.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8)) == nil)
    }

    @Test func namesFilesAndMediaTypes() {
        #expect(ImageFormat.jpeg.fileExtension == "jpg")
        #expect(ImageFormat.webp.mediaType == "image/webp")
    }
}
