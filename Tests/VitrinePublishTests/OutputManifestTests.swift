import Foundation
import Testing

@testable import VitrinePublish

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

    /// Writes `bytes` as the manifest of a fresh folder and reads it back.
    static func read(_ bytes: [UInt8]) throws -> OutputManifest? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(bytes).write(to: folder.appendingPathComponent(OutputManifest.fileName))
        return OutputManifest.read(in: folder)
    }

    @Test(arguments: manifests)
    func readsBackWhatItWrote(manifest: OutputManifest) throws {
        #expect(try Self.read(manifest.encoded()) == manifest)
    }

    @Test func readsAManifestInTheOrderTheFileHas() throws {
        let json =
            #"{"generator": "Vitrine 0.1", "files": [{"path": "b", "sha256": "2"}, {"path": "a", "sha256": "1"}]}"#
        let manifest = try #require(try Self.read(Array(json.utf8)))
        #expect(manifest.files.map(\.path) == ["b", "a"])
        #expect(manifest.generator == "Vitrine 0.1")
    }

    /// As tolerant as `JSONDecoder` was: optional fields missing or null, `galleries` missing or null in older
    /// manifests, unknown keys ignored, escapes decoded.
    @Test(arguments: [
        #"{"generator": "g", "files": []}"#,
        #"{"generator": "g", "files": [], "galleries": null, "future": [1, {"x": 2}]}"#,
        #"{"generator": "g", "files": [{"path": "a", "sha256": "", "size": null, "inputs": null}], "galleries": []}"#,
        #"{"generator": "g", "files": [{"path": "\u00e9\n", "sha256": "s", "size": 12}], "galleries": [{"path": "","#
            + #" "title": "t", "source": "s", "sourceLabel": "S", "queries": ["q"], "items": [{"id": "1", "credits":"#
            + #" [{"variant": "v", "name": "n"}, {"variant": "v", "name": "n", "url": null}]}]}]}"#,
    ])
    func readsWhatJSONDecoderRead(json: String) throws {
        let expected = try JSONDecoder().decode(OutputManifest.self, from: Data(json.utf8))
        #expect(try Self.read(Array(json.utf8)) == expected)
    }

    /// Anything else of the wrong kind, or not JSON at all, reads as no manifest, as it did with `JSONDecoder`.
    @Test(arguments: [
        "", "null", "[]", #"{"files": []}"#, #"{"generator": 1, "files": []}"#, #"{"generator": "g"}"#,
        #"{"generator": "g", "files": {}}"#, #"{"generator": "g", "files": [], "galleries": {}}"#,
        #"{"generator": "g", "files": [{"path": "a"}]}"#, #"{"generator": "g", "files": [{"path": "a", "sha256": 1}]}"#,
        #"{"generator": "g", "files": [{"path": "a", "sha256": "s", "size": "12"}]}"#,
        #"{"generator": "g", "files": [{"path": "a", "sha256": "s", "size": 1.5}]}"#,
        #"{"generator": "g", "files": [{"path": "a", "sha256": "s", "inputs": 3}]}"#,
        #"{"generator": "g", "files": [], "galleries": [{"path": "", "title": "t"}]}"#,
        #"{"generator": "g", "files": [], "galleries": [{"path": "", "title": "t", "source": "s", "sourceLabel": "S","#
            + #" "queries": [1], "items": []}]}"#,
        #"{"generator": "g", "files": [], "galleries": [{"path": "", "title": "t", "source": "s", "sourceLabel": "S","#
            + #" "queries": [], "items": [{"id": "1", "credits": [{"variant": "v"}]}]}]}"#,
        #"{"generator": "g", "files": []"#,
    ])
    func rejectsWhatJSONDecoderRejected(json: String) throws {
        #expect(throws: (any Error).self) { try JSONDecoder().decode(OutputManifest.self, from: Data(json.utf8)) }
        #expect(try Self.read(Array(json.utf8)) == nil)
    }
}
