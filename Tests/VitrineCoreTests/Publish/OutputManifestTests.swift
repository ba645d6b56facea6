import Foundation
import Testing

@testable import VitrineCore

/// The manifest is written by hand (no `JSONEncoder` tree); its bytes must stay those `JSONEncoder` would give, so
/// that every reader of the file, and every diff of it, sees the format it always had.
@Suite struct OutputManifestTests {
    static let awkward =
        "quote \" backslash \\ slash / tab \t newline \n bell \u{7} nul \u{0} del \u{7F} é 漢 \u{2028} 🙂"

    static let manifests: [OutputManifest] = [
        OutputManifest(files: []),
        OutputManifest(
            files: [
                .init(path: "index.html", sha256: String(repeating: "a", count: 64), size: 1234, inputs: "f00"),
                .init(path: "items/\(awkward).html", sha256: ""),
                .init(path: "images/ab/x.jpg", sha256: "b", size: 0),
            ],
            galleries: [
                .init(
                    path: "", title: awkward, source: "pixabay", sourceLabel: "Pixabay", queries: ["Hamburg", awkward],
                    items: [
                        .init(
                            id: "1",
                            credits: [
                                .init(variant: "original", name: awkward, url: "https://x.org/u/1"),
                                .init(variant: "graffiti", name: "b", url: nil),
                            ]),
                        .init(id: awkward, credits: []),
                    ]),
                .init(path: "empty/", title: "", source: "thumbnails", sourceLabel: "", queries: [], items: []),
            ]),
    ]

    @Test(arguments: manifests)
    func writesTheBytesJSONEncoderWould(manifest: OutputManifest) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let expected = [UInt8](try encoder.encode(manifest)) + [0x0A]
        let written = manifest.encoded()
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(try JSONDecoder().decode(OutputManifest.self, from: Data(written)) == manifest)
    }
}
