import Foundation
import SampleAPI
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrineBasics
@testable import VitrineRender

/// `--formats avif,webp`: the downloaded images re-encoded, offered in every picture, made once.
@Suite(.serialized) final class ImageFormatsTests: StoppableFixture {
    let server = SampleAPIServer(configuration: SampleAPIConfiguration(apiKey: "formats-key"))
    let workspace: Workspace

    init() async throws {
        workspace = try Workspace()
        try await server.start()
    }

    func stop() async { await server.stop() }

    func build(out: String, _ extra: [String]) async throws -> VitrineProcess.Outcome {
        try await VitrineProcess.run(
            [
                "pixabay", "Hamburg", "--per-page", "4", "--pages", "1", "--endpoint", await server.pixabayEndpoint,
                "--key", "formats-key", "--cache", workspace.path("cache"), "--out", workspace.path(out),
            ] + extra)
    }

    /// Every file of an output folder but its manifest, by path.
    func files(_ out: String) throws -> [String: Data] {
        let root = workspace.url.appendingPathComponent(out)
        var files: [String: Data] = [:]
        for case let url as URL in FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)! {
            let path = String(url.path.dropFirst(root.path.count + 1))
            guard !path.hasPrefix(".vitrine"), !url.hasDirectoryPath else { continue }
            files[path] = try Data(contentsOf: url)
        }
        return files
    }

    @Test func copiesAreMadeOnceAndOfferedInEveryPictureInTheOrderAsked() async throws {
        try await stopping(self) {
            let first = try await build(out: "a", ["--formats", "avif,webp"])
            #expect(first.status == 0, "stderr: \(first.stderr)")
            #expect(first.stderr.contains(" re-encoded"))
            let root = workspace.url.appendingPathComponent("a")
            let model = try LibXMLDocument.parse([UInt8](Data(contentsOf: root.appendingPathComponent("gallery.xml"))))
            #expect(model.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [])
            let originals = model.strings("//entry/image[@type='image/jpeg']/@src")
            #expect(!originals.isEmpty)
            // Each JPEG has its copies (only a copy that is not smaller is left out; none is here): AVIF for dense
            // screens, AVIF for any, WebP, in that order; the first the smallest.
            #expect(model.strings("//entry/image[@type='image/jpeg'][count(encoding) != 3]/@src") == [])
            #expect(
                model.strings("//entry/image/encoding[1][@type != 'image/avif' or @min-density != '2']/@src") == [])
            #expect(model.strings("//entry/image/encoding[2][@type != 'image/avif' or @min-density]/@src") == [])
            #expect(model.strings("//entry/image/encoding[3][@type != 'image/webp' or @min-density]/@src") == [])
            for image in model.strings("//entry/image[encoding]/@src") {
                let copies = model.strings("//entry/image[@src='\(image)'][1]/encoding/@src").map {
                    try? Data(contentsOf: root.appendingPathComponent($0)).count
                }
                #expect(copies.count == 3 && copies[0]! < copies[1]!, "\(image)")
            }
            for path in Set(model.strings("//encoding/@src")) {
                let bytes = try Data(contentsOf: root.appendingPathComponent(path))
                let format = try #require(ImageFormat.sniff(bytes))
                #expect(path.hasSuffix(".\(format.fileExtension)"))
            }
            // The body: the stylesheet inline in the head speaks of `<picture>` in a comment.
            let page = try String(contentsOf: root.appendingPathComponent("index.html"), encoding: .utf8)
            let grid = try #require(page.components(separatedBy: "<body").last)
            #expect(!grid.contains("</source>"))
            let pictures = grid.components(separatedBy: "<picture>").count - 1
            #expect(
                grid.components(separatedBy: "<picture><source type=\"image/avif\" media=\"(min-resolution: 2dppx)\"")
                    .count - 1 == pictures)
            #expect(grid.components(separatedBy: "<source type=\"image/avif\" srcset=").count - 1 == pictures)
            #expect(grid.components(separatedBy: "<picture>").count - 1 == 4)

            // A second output from the same cache: nothing encoded again, and the same bytes.
            let second = try await build(out: "b", ["--formats", "avif,webp"])
            #expect(second.status == 0, "stderr: \(second.stderr)")
            #expect(!second.stderr.contains("re-encoded"))
            #expect(try files("a") == files("b"))
        }
    }

    @Test func droppingTheFormatsRemovesTheCopiesAndThePictures() async throws {
        try await stopping(self) {
            #expect(try await build(out: "c", ["--formats", "webp"]).status == 0)
            #expect(try files("c").keys.contains { $0.hasSuffix(".webp") })
            let plain = try await build(out: "c", [])
            #expect(plain.status == 0, "stderr: \(plain.stderr)")
            let after = try files("c")
            #expect(!after.keys.contains { $0.hasSuffix(".webp") || $0.hasSuffix(".avif") })
            let pages = after.filter { $0.key.hasSuffix(".html") }
            #expect(pages.count > 4)
            // In the bodies: the stylesheet inline in a grid page's head speaks of `<picture>` in a comment.
            #expect(
                !pages.values.contains {
                    String(decoding: $0, as: UTF8.self).components(separatedBy: "<body").dropFirst().joined()
                        .contains("<picture>")
                })
        }
    }

    /// libvips is loaded only when a picture is to be copied: without it (here a file of that name that is no
    /// library, found first through `LD_LIBRARY_PATH`), a gallery that copies its pictures stops in one sentence,
    /// exit 69, and one whose pictures are all shown from the API's servers (Flickr's public feed) builds.
    @Test func withoutLibvipsOnlyAGalleryWithPicturesToCopyStops() async throws {
        try await stopping(self) {
            let fake = workspace.url.appendingPathComponent("no-libvips")
            try FileManager.default.createDirectory(at: fake, withIntermediateDirectories: true)
            try Data("not a library".utf8).write(to: fake.appendingPathComponent("libvips.so.42"))
            let environment = ["LD_LIBRARY_PATH": fake.path]
            let copying = try await VitrineProcess.run(
                [
                    "pixabay", "Hamburg", "--per-page", "4", "--pages", "1", "--endpoint", await server.pixabayEndpoint,
                    "--key", "formats-key", "--cache", workspace.path("cache-e"), "--out", workspace.path("e"),
                    "--formats", "avif,webp",
                ], environment: environment)
            #expect(copying.status == 69, "stderr: \(copying.stderr)")
            #expect(copying.stderr.contains("libvips"))
            #expect(copying.stderr.split(separator: "\n").count == 1, "stderr: \(copying.stderr)")
            let written = FileManager.default.fileExists(atPath: workspace.path("e")) ? try files("e").keys : [:].keys
            #expect(!written.contains { $0.hasSuffix(".html") }, "\(written)")
            let hotlinked = try await VitrineProcess.run(
                [
                    "flickr", "Hamburg", "--endpoint", await server.flickrEndpoint, "--cache",
                    workspace.path("cache-f"),
                    "--out", workspace.path("f"), "--formats", "avif,webp", "--quiet",
                ], environment: environment)
            #expect(hotlinked.status == 0, "stderr: \(hotlinked.stderr)")
            #expect(try !files("f").keys.contains { $0.hasPrefix("images/") })
        }
    }

    @Test(arguments: ["jpeg", "avif,avif", "", "avif,,webp", "png", "avif\u{202E}x"])
    func aListThatIsNotOneIsRefusedInOneSentence(_ list: String) async throws {
        try await stopping(self) {
            let outcome = try await build(out: "d", ["--formats", list])
            #expect(outcome.status == 64, "stderr: \(outcome.stderr)")
            #expect(outcome.stderr.contains("--formats"))
            #expect(!outcome.stderr.contains("\u{202E}"))
            #expect(!FileManager.default.fileExists(atPath: workspace.path("d")))
        }
    }

    @Test(arguments: [#"["gif"]"#, #""avif""#, #"["avif", 3]"#, "[]"])
    func theSiteConfigRefusesAFormatsKeyThatIsNotAList(_ value: String) async throws {
        try await stopping(self) {
            let config = workspace.path("vitrine.toml")
            try """
            title = "x"
            formats = \(value)

            [[gallery]]
            source = "thumbnails"
            """.write(toFile: config, atomically: true, encoding: .utf8)
            let outcome = try await VitrineProcess.run(
                [
                    "build", "--config", config, "--offline", "--cache", workspace.path("cache"), "--out",
                    workspace.path("site"),
                ])
            #expect(outcome.status == 64, "stderr: \(outcome.stderr)")
            #expect(outcome.stderr.contains("formats"))
        }
    }
}
