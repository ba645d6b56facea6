import Foundation
import Testing

@testable import VitrinePublish

/// The manifest is written by hand in the bytes `JSONEncoder` gives (pretty-printed, sorted keys), the bytes it
/// always had, and read with `JSONDecoder` as tolerantly as before: manifests of earlier versions stay readable.
@Suite struct OutputManifestTests {
    static let awkward =
        "quote \" backslash \\ slash / tab \t newline \n bell \u{7} nul \u{0} del \u{7F} é 漢 \u{2028} 🙂"

    static let manifests: [OutputManifest] = [
        OutputManifest(files: []),
        OutputManifest(
            files: [
                .init(path: "index.html", sha256: String(repeating: "a", count: 64), size: 1234, inputs: "f00"),
                .init(path: "items/\(awkward).html", sha256: ""),
                .init(path: "images/ab/x.jpg", sha256: "b", size: 0, urls: ["https://x.org/1.jpg", awkward]),
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
        #expect(String(decoding: manifest.encoded(), as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }

    /// Written a small piece at a time (as it goes to its file), the manifest has the same bytes.
    @Test(arguments: manifests)
    func writtenInPiecesItHasTheSameBytes(manifest: OutputManifest) throws {
        var pieces: [[UInt8]] = []
        manifest.encode(piece: 64) { pieces.append(Array($0)) }
        #expect(pieces.joined().elementsEqual(manifest.encoded()))
        #expect(manifest.files.count < 2 || pieces.count > 2)
    }

    /// The layout every earlier version wrote, byte for byte: two-space indents, `" : "`, empty lists on two lines,
    /// slashes and non-ASCII text as they are, control characters escaped, a newline at the end.
    @Test func writesTheBytesEarlierVersionsWrote() {
        var manifest = OutputManifest(
            files: [
                .init(path: "images/ab/x.jpg", sha256: "b", size: 0, urls: ["https://x.org/1.jpg"]),
                .init(path: "index.html", sha256: "a", size: 12, inputs: "f00"),
            ],
            galleries: [
                .init(
                    path: "", title: "Tab\there é", source: "pixabay", sourceLabel: "Pixabay", queries: [],
                    items: [.init(id: "1", credits: [.init(variant: "original", name: "\"Q\"", url: nil)])])
            ])
        manifest.generator = "Vitrine test"
        let expected = """
            {
              "files" : [
                {
                  "path" : "images/ab/x.jpg",
                  "sha256" : "b",
                  "size" : 0,
                  "urls" : [
                    "https://x.org/1.jpg"
                  ]
                },
                {
                  "inputs" : "f00",
                  "path" : "index.html",
                  "sha256" : "a",
                  "size" : 12
                }
              ],
              "galleries" : [
                {
                  "items" : [
                    {
                      "credits" : [
                        {
                          "name" : "\\"Q\\"",
                          "variant" : "original"
                        }
                      ],
                      "id" : "1"
                    }
                  ],
                  "path" : "",
                  "queries" : [

                  ],
                  "source" : "pixabay",
                  "sourceLabel" : "Pixabay",
                  "title" : "Tab\\there é"
                }
              ],
              "generator" : "Vitrine test"
            }

            """
        #expect(String(decoding: manifest.encoded(), as: UTF8.self) == expected)
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

    /// Manifests of earlier versions: optional fields missing or null, `galleries` missing or null, unknown keys
    /// ignored, escapes decoded.
    @Test(arguments: [
        #"{"generator": "g", "files": []}"#,
        #"{"generator": "g", "files": [], "galleries": null, "future": [1, {"x": 2}]}"#,
        #"{"generator": "g", "files": [{"path": "a", "sha256": "", "size": null, "inputs": null}], "galleries": []}"#,
        #"{"generator": "g", "files": [{"path": "\u00e9\n", "sha256": "s", "size": 12}], "galleries": [{"path": "","#
            + #" "title": "t", "source": "s", "sourceLabel": "S", "queries": ["q"], "items": [{"id": "1", "credits":"#
            + #" [{"variant": "v", "name": "n"}, {"variant": "v", "name": "n", "url": null}]}]}]}"#,
    ])
    func readsWhatEarlierVersionsWrote(json: String) throws {
        let expected = try JSONDecoder().decode(OutputManifest.self, from: Data(json.utf8))
        #expect(try Self.read(Array(json.utf8)) == expected)
    }

    /// Anything else of the wrong kind, or not JSON at all, reads as no manifest.
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
    func rejectsWhatIsNotAManifest(json: String) throws {
        #expect(try Self.read(Array(json.utf8)) == nil)
    }

    /// A manifest that cannot be read says why, not whatever `errno` an earlier call left behind.
    @Test func saysWhyAManifestCannotBeRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(OutputManifest.fileName)
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        // Sparse: a gigabyte and a byte on disk costs nothing.
        #expect(truncate(file.path, (1 << 30) + 1) == 0)
        #expect(
            OutputManifest.readChecked(in: folder).failure?.description
                == "it cannot be read (it holds more than 1024 MiB, the most Vitrine reads of it)")
    }

    @Test func saysWhichValueOfADamagedManifestIsWrong() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(OutputManifest.fileName)
        for (json, problem) in [
            (
                #"{"generator": "g", "files": [{"path": "a", "sha256": "1"}, {"path": "b"}]}"#,
                "it does not have a manifest's fields (“files[1].sha256” is missing)"
            ),
            ("[]", "it does not have a manifest's fields (it is not a JSON object)"),
            (#"{"generator": "g", "files": ["#, "it is not complete JSON"),
        ] {
            try Data(json.utf8).write(to: file)
            #expect(OutputManifest.readChecked(in: folder).failure?.description == problem)
        }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { failure } else { nil }
    }
}
