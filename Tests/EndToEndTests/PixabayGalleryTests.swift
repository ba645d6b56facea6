import Foundation
import SampleAPI
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrineBasics
@testable import VitrineHTTP
@testable import VitrineRender

/// The Pixabay gallery built by the real binary against the sample API on loopback.
@Suite(.serialized) final class PixabayGalleryTests: StoppableFixture {
    static let key = "SeCrEt-Key-4242"
    let server = SampleAPIServer(configuration: SampleAPIConfiguration(apiKey: PixabayGalleryTests.key))
    let workspace: Workspace

    init() async throws {
        workspace = try Workspace()
        try await server.start()
    }

    func stop() async { await server.stop() }

    func build(
        _ extra: [String] = [], out: String = "out", key: String? = PixabayGalleryTests.key,
        environment: [String: String] = [:]
    ) async throws -> VitrineProcess.Outcome {
        var arguments = [
            "pixabay", "Hamburg", "--per-page", "10", "--pages", "3", "--endpoint", await server.pixabayEndpoint,
            "--cache", workspace.path("cache"), "--out", workspace.path(out),
        ]
        if let key { arguments += ["--key", key] }
        return try await VitrineProcess.run(arguments + extra, environment: environment)
    }

    var imageRequests: [String] { server.requests().map(\.path).filter { $0.hasSuffix(".jpg") } }

    @Test func buildsACompleteGalleryWhoseLinksAllResolve() async throws {
        try await stopping(self) {
            let outcome = try await build()
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            #expect(outcome.stderr.contains("30 items"))
            let site = SiteInspector(root: workspace.url.appendingPathComponent("out"))
            let crawl = try site.crawl()
            #expect(crawl.broken == [])
            #expect(crawl.pages.isSuperset(of: ["index.html", "page-2.html", "page-3.html"]))
            #expect(crawl.pages.filter { $0.hasPrefix("items/") }.count == 60)
            let images = crawl.files.filter { $0.hasPrefix("images/") }
            #expect(!images.isEmpty)
            for image in images {
                let bytes = try Data(contentsOf: site.root.appendingPathComponent(image))
                #expect(ImageFormat.sniff(bytes) != nil, "\(image) is not an image")
            }
            let everyReference = try crawl.pages.flatMap { try site.references(of: $0) }
            #expect(!everyReference.contains { $0.contains("127.0.0.1") })

            let model = try LibXMLDocument.parse(
                [UInt8](Data(contentsOf: site.root.appendingPathComponent("gallery.xml"))))
            #expect(model.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [])
            #expect(model.strings("//item").count == 30)
            #expect(model.strings("//entry[@variant='graffiti'][missing]").count == 14)
            let tiles = try ["index.html", "page-2.html", "page-3.html"].map {
                try site.page($0).strings("//main//a[contains(@href, '-original.html')]/@href")
            }
            #expect(Set(tiles.flatMap { $0 }).count == 30)
            #expect(
                try site.page("index.html").strings("//footer[@class='site']").joined().contains(
                    "credited to its author"))
        }
    }

    @Test func previewPagesChainThroughEveryItemInBothVariants() async throws {
        try await stopping(self) {
            #expect(try await build().status == 0)
            let site = SiteInspector(root: workspace.url.appendingPathComponent("out"))
            let model = try LibXMLDocument.parse(
                [UInt8](Data(contentsOf: site.root.appendingPathComponent("gallery.xml"))))
            let first = try #require(model.strings("//item[1]/entry[@variant='original']/@href").first)
            let original = try site.nextChain(from: first)
            #expect(original.chain.count == 30 && original.prevMatches)
            let graffiti = try site.nextChain(
                from: try #require(model.strings("//item[1]/entry[@variant='graffiti']/@href").first))
            #expect(graffiti.chain.count == 30 && graffiti.prevMatches)
            let last = try site.page(graffiti.chain.last!)
            #expect(last.strings("//main").joined().contains("No “Hamburg graffiti” match for this item."))
            let switchLink = try #require(site.page(first).strings("//a[@data-nav='variant']/@href").first)
            #expect(switchLink.hasSuffix("-graffiti.html"))
            let pageOfItem21 = try site.page(original.chain[20]).strings("//a[@data-nav='up']/@href")
            #expect(pageOfItem21.contains { $0.hasPrefix("../page-3.html") })
        }
    }

    @Test func downloadsEachDistinctImageOnceAndNeverLeaksTheKey() async throws {
        try await stopping(self) {
            let outcome = try await build()
            #expect(outcome.status == 0)
            #expect(Set(imageRequests).count == imageRequests.count)
            #expect(!outcome.stderr.contains(Self.key) && !outcome.stdout.contains(Self.key))
            for folder in ["out", "cache"] {
                for (path, bytes) in try workspace.tree(folder) {
                    #expect(!path.contains(Self.key))
                    #expect(bytes.range(of: Data(Self.key.utf8)) == nil, "\(folder)/\(path) holds the key")
                }
            }
        }
    }

    @Test func aCachedRerunSendsNoRequestAndAnOfflineRunWritesTheSameFiles() async throws {
        try await stopping(self) {
            #expect(try await build().status == 0)
            let first = try workspace.tree("out")
            server.resetRequests()
            let second = try await build()
            #expect(second.status == 0)
            #expect(server.requests().isEmpty)
            #expect(try workspace.tree("out") == first)
            let offline = try await build(["--offline"], out: "offline")
            #expect(offline.status == 0, "stderr: \(offline.stderr)")
            #expect(server.requests().isEmpty)
            #expect(try workspace.tree("offline") == first)
        }
    }

    /// libcurl and the libraries it needs are loaded by the first transfer, not at every start: a rebuild with
    /// nothing to fetch, or `--version`, never loads them (a seventh of such a rebuild's time). glibc's loader names
    /// every library it loads, at the start or later by `dlopen`, when `LD_DEBUG=files` is set.
    @Test func libcurlIsLoadedByTheFirstTransferAndByNothingElse() async throws {
        try await stopping(self) {
            let loaderLog = ["LD_DEBUG": "files"]
            let fetching = try await build(environment: loaderLog)
            #expect(fetching.status == 0)
            #expect(fetching.stderr.contains("file=libcurl.so.4"), "the loader's log names no libcurl")
            let unchanged = try await build(environment: loaderLog)
            #expect(unchanged.status == 0 && unchanged.stderr.contains("Up to date"))
            #expect(!unchanged.stderr.contains("libcurl"))
            let offline = try await build(["--offline"], out: "offline", environment: loaderLog)
            #expect(offline.status == 0 && !offline.stderr.contains("libcurl"))
            let version = try await VitrineProcess.run(["--version"], environment: loaderLog)
            #expect(version.status == 0 && !version.stderr.contains("libcurl"))
        }
    }

    /// A run killed after its last page, while it kept its records in the cache, leaves a temporary file there; the
    /// next run finds the output current and ends early, and clears it all the same (found by `scripts/chaos`).
    @Test func aRebuildThatChangesNothingStillClearsAKilledRunsTemporaryFiles() async throws {
        try await stopping(self) {
            #expect(try await build().status == 0)
            let orphan = workspace.url.appendingPathComponent("cache/tmp/.record.files.vitrine-2000000000-1")
            try FileManager.default.createDirectory(
                at: orphan.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("half".utf8).write(to: orphan)
            let second = try await build()
            #expect(second.status == 0, "stderr: \(second.stderr)")
            #expect(!FileManager.default.fileExists(atPath: orphan.path))
        }
    }

    @Test func refreshAsksAgain() async throws {
        try await stopping(self) {
            let first = try await build()
            #expect(first.status == 0)
            server.resetRequests()
            let refreshed = try await build(["--refresh"])
            #expect(refreshed.status == 0)
            #expect(server.requests().filter { $0.path.hasPrefix("/api") }.count == 2)
            #expect(imageRequests.isEmpty)
        }
    }

    @Test func offlineWithAnEmptyCacheFailsAndWritesNothing() async throws {
        try await stopping(self) {
            let outcome = try await build(["--offline"])
            #expect(outcome.status == 66)
            #expect(outcome.stderr.split(separator: "\n").count == 1)
            #expect(outcome.stderr.contains("--offline"))
            #expect(!FileManager.default.fileExists(atPath: workspace.path("out/index.html")))
            #expect(server.requests().isEmpty)
        }
    }

    @Test func aMissingKeyIsOneSentenceAndExit77() async throws {
        try await stopping(self) {
            let outcome = try await build(key: nil)
            #expect(outcome.status == 77)
            #expect(outcome.stderr.split(separator: "\n").count == 1)
            #expect(outcome.stderr.contains("PIXABAY_API_KEY") && outcome.stderr.contains("--key"))
            #expect(server.requests().isEmpty)
        }
    }

    @Test func aRejectedKeyQuotesPixabaysMessage() async throws {
        try await stopping(self) {
            let outcome = try await build(key: "wrong-key-123")
            #expect(outcome.status == 77)
            #expect(outcome.stderr.contains("Invalid or missing API key"))
            #expect(!outcome.stderr.contains("wrong-key-123"))
        }
    }

    @Test func takesTheKeyFromTheEnvironment() async throws {
        try await stopping(self) {
            let outcome = try await VitrineProcess.run(
                [
                    "pixabay", "Hamburg", "--endpoint", await server.pixabayEndpoint, "--cache",
                    workspace.path("cache"),
                    "--out", workspace.path("out"),
                ], environment: ["PIXABAY_API_KEY": Self.key])
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            #expect(outcome.stderr.contains("10 items"))
        }
    }

    @Test func aThemeFolderReplacesTheBuiltInTemplates() async throws {
        try await stopping(self) {
            let theme = workspace.url.appendingPathComponent("theme")
            try FileManager.default.createDirectory(at: theme, withIntermediateDirectories: true)
            for (name, bytes) in DefaultTheme.files { try Data(bytes).write(to: theme.appendingPathComponent(name)) }
            let grid = String(decoding: DefaultTheme.files["grid.xsl"]!, as: UTF8.self)
            let marked =
                grid.replacingOccurrences(of: "</xsl:stylesheet>", with: "") + """
                      <xsl:template match="/" priority="10"><html><body><p id="custom">My own theme</p></body></html></xsl:template>
                    </xsl:stylesheet>
                    """
            try Data(marked.utf8).write(to: theme.appendingPathComponent("grid.xsl"))
            try Data("body { color: red }".utf8).write(to: theme.appendingPathComponent("extra.css"))
            let outcome = try await build(["--templates", theme.path])
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            let index = try String(contentsOfFile: workspace.path("out/index.html"), encoding: .utf8)
            #expect(index.contains("My own theme"))
            #expect(FileManager.default.fileExists(atPath: workspace.path("out/assets/extra.css")))
        }
    }

    @Test func showsProgressOnATerminalOnly() async throws {
        try await stopping(self) {
            let quiet = try await build()
            #expect(!quiet.stderr.contains("Images "))
            let command = [
                VitrineProcess.binary.path, "pixabay", "Hamburg", "--endpoint", await server.pixabayEndpoint, "--key",
                Self.key, "--cache", workspace.path("tty-cache"), "--out", workspace.path("tty-out"),
            ].map { "'\($0)'" }.joined(separator: " ")
            let terminal = try await VitrineProcess.run(
                ["-qec", command, "/dev/null"], executable: URL(fileURLWithPath: "/usr/bin/script"))
            #expect(terminal.status == 0)
            // 18 pictures (two of the graffiti search's ten are missing), each in 5 sizes: tile, full, 180, 340, 960;
            // a grid page, 20 previews, the tag index, the tags' pages and the search page
            let model = try LibXMLDocument.parse(
                [UInt8](Data(contentsOf: workspace.url.appendingPathComponent("tty-out/gallery.xml"))))
            let pages = 23 + model.strings("/gallery/tags/tag/page").count
            #expect(terminal.stdout.contains("Images 90/90") && terminal.stdout.contains("Pages \(pages)/\(pages)"))
            #expect(terminal.stdout.contains("\u{1B}[K"))
            #expect(terminal.stdout.contains("10 items"))
        }
    }

    @Test func aTemplateThatGrowsAStringWithoutEndStopsAtItsMemoryLimitWithExit78() async throws {
        try await stopping(self) {
            let theme = workspace.url.appendingPathComponent("greedy")
            try FileManager.default.createDirectory(at: theme, withIntermediateDirectories: true)
            for (name, bytes) in DefaultTheme.files { try Data(bytes).write(to: theme.appendingPathComponent(name)) }
            try Data(HostileTemplates.doublingString.utf8).write(to: theme.appendingPathComponent("grid.xsl"))
            let outcome = try await build(["--templates", theme.path])
            #expect(outcome.status == 78)
            #expect(
                outcome.stderr.contains(
                    "vitrine: The template grid.xsl cannot be used: rendering index.html needed more than 512 MB of "
                        + "memory, the most one page may use, so it was stopped.\n"), "\(outcome.stderr)")
            #expect(!outcome.stderr.contains("allocation failed"), "libxml2's own message stays out: \(outcome.stderr)")
            #expect(!FileManager.default.fileExists(atPath: workspace.path("out/index.html")))
        }
    }

    @Test func aBrokenThemeFolderIsExit78() async throws {
        try await stopping(self) {
            let theme = workspace.url.appendingPathComponent("broken")
            try FileManager.default.createDirectory(at: theme, withIntermediateDirectories: true)
            try Data("<nope".utf8).write(to: theme.appendingPathComponent("grid.xsl"))
            try Data("<nope/>".utf8).write(to: theme.appendingPathComponent("preview.xsl"))
            let outcome = try await build(["--templates", theme.path])
            #expect(outcome.status == 78)
            #expect(outcome.stderr.contains("grid.xsl"))
        }
    }
}
