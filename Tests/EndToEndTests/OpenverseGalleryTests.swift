import Foundation
import SampleAPI
import Testing
import VitrineTemplates

@testable import VitrineBasics
@testable import VitrineRender

/// Openverse galleries built by the real binary against the sample API's Openverse search.
@Suite struct OpenverseGalleryTests {
    static let token = "openverse-token-5150"

    func withServer(
        faults: [SampleAPIFault] = [], rateLimit: Int = 10_000,
        _ body: (SampleAPIServer, Workspace) async throws -> Void
    ) async throws {
        var configuration = SampleAPIConfiguration(faults: faults)
        configuration.openverseToken = Self.token
        configuration.openverseRateLimit = rateLimit
        try await withSampleAPI(configuration, body)
    }

    func openverse(
        _ server: SampleAPIServer, _ workspace: Workspace, _ extra: [String], environment: [String: String] = [:]
    ) async throws -> VitrineProcess.Outcome {
        try await VitrineProcess.run(
            ["openverse"] + extra + [
                "--endpoint", await server.openverseEndpoint, "--cache", workspace.path("cache"), "--out",
                workspace.path("out"), "--retries", "0",
            ], environment: environment)
    }

    func searches(_ server: SampleAPIServer) -> [SampleAPIRequest] {
        server.requests().filter { $0.path == "/v1/images/" }
    }

    /// The hostile results of the sample catalogue are among the first 20: the HTML title stays text, the
    /// `javascript:` creator link is dropped, the license Vitrine cannot know is shown from its URL, never copied,
    /// and the two mature works are left out and counted.
    @Test func aGalleryCreditsLinksAndLicensesEveryWorkAndLeavesOutMatureOnes() async throws {
        try await withServer { server, workspace in
            let outcome = try await openverse(server, workspace, ["Hafen", "--per-page", "20"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("Left out 2 Openverse results marked as mature."))
            #expect(outcome.stderr.contains("20 items"), "the two mature ones are made up from the next page")
            let site = SiteInspector(root: workspace.url.appendingPathComponent("out"))
            #expect(try site.crawl().broken == [])
            let model = try LibXMLDocument.parse(
                [UInt8](Data(contentsOf: site.root.appendingPathComponent("gallery.xml"))))
            #expect(model.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [])
            #expect(model.strings("//source/@name") == ["openverse"])
            let labels = Set(model.strings("//license/@label"))
            #expect(labels.contains("License unknown") && labels.contains { $0.hasPrefix("CC BY") })
            #expect(
                model.strings("//license[@copies='allowed']/@href").allSatisfy {
                    $0.hasPrefix("https://creativecommons.org/")
                })
            #expect(model.strings("//credit/@author-href").allSatisfy { $0.hasPrefix("http") })
            let captions = model.strings("//caption")
            #expect(captions.contains(OpenverseCatalog.htmlTitle) && captions.allSatisfy { $0.count <= 2_001 })
            #expect(captions.contains { $0.count > 1_000 }, "the 5,000-character title, cut")
            #expect(model.strings("//entry[license/@copies='unknown']/image/@src").isEmpty)
            #expect(!model.strings("//entry[license/@copies='unknown']/image/@url").isEmpty)
            let searches = searches(server)
            #expect(searches.count == 2 && searches.allSatisfy { $0.query["page_size"] == "20" })
            for page in try site.crawl().files where page.hasSuffix(".html") {
                let html = String(decoding: try Data(contentsOf: site.root.appendingPathComponent(page)), as: UTF8.self)
                #expect(!html.contains("<script>alert(1)") && !html.contains("javascript:alert"), "\(page)")
            }
        }
    }

    @Test func anonymousUseNeverAsksForMoreThanTwentyAPageAndATokenIsABearerNeverWritten() async throws {
        try await withServer { server, workspace in
            let anonymous = try await openverse(server, workspace, ["Hafen", "--per-page", "50"])
            #expect(anonymous.status == 0, "\(anonymous.stderr)")
            #expect(searches(server).allSatisfy { Int($0.query["page_size"] ?? "") ?? 99 <= 20 })
            #expect(searches(server).allSatisfy { $0.headers["authorization"] == nil })
            let before = searches(server).count
            let withToken = try await openverse(
                server, workspace, ["Hamburg", "--per-page", "50"], environment: ["OPENVERSE_TOKEN": Self.token])
            #expect(withToken.status == 0, "\(withToken.stderr)")
            let asked = searches(server).dropFirst(before)
            #expect(asked.first?.query["page_size"] == "50")
            #expect(asked.allSatisfy { $0.headers["authorization"] == "Bearer \(Self.token)" })
            #expect(!withToken.stderr.contains(Self.token) && !withToken.stdout.contains(Self.token))
            for folder in ["cache", "out"] {
                for (path, bytes) in try workspace.tree(folder) {
                    #expect(!path.contains(Self.token) && !String(decoding: bytes, as: UTF8.self).contains(Self.token))
                }
            }
        }
    }

    @Test func aRejectedTokenIsOneSentenceAndNothingIsWritten() async throws {
        try await withServer { server, workspace in
            let outcome = try await openverse(
                server, workspace, ["Hafen"], environment: ["OPENVERSE_TOKEN": "not-the-token"])
            #expect(outcome.status == 69, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("Openverse refused the request with HTTP 401"))
            #expect(outcome.stderr.contains("OPENVERSE_TOKEN") && !outcome.stderr.contains("not-the-token"))
            #expect(!FileManager.default.fileExists(atPath: workspace.path("out/index.html")))
        }
    }

    @Test func aThrottledSearchIsWaitedOutAsItsRetryAfterAsks() async throws {
        try await withServer(faults: [
            SampleAPIFault(.rateLimited(retryAfter: .seconds(1)), on: .openverse, times: 1)
        ]) { server, workspace in
            let outcome = try await VitrineProcess.run([
                "openverse", "Hafen", "--per-page", "5", "--endpoint", await server.openverseEndpoint, "--cache",
                workspace.path("cache"),
                "--out", workspace.path("out"),
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(searches(server).count == 3, "the throttled search, its retry, and page 2 for the mature one")
        }
    }

    @Test func aLicenseChoiceIsAskedOfTheAPIAndANameItLacksIsExit64() async throws {
        try await withServer { server, workspace in
            let outcome = try await openverse(server, workspace, ["Hafen", "--license", "by-sa,cc0"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(searches(server).first?.query["license"] == "by-sa,cc0")
            let model = try LibXMLDocument.parse(
                [UInt8](Data(contentsOf: workspace.url.appendingPathComponent("out/gallery.xml"))))
            #expect(Set(model.strings("//license/@id")).isSubset(of: ["by-sa", "cc0"]))
            let unknown = try await openverse(server, workspace, ["Hafen", "--license", "by,All rights reserved"])
            #expect(unknown.status == 64, "\(unknown.stderr)")
            #expect(unknown.stderr.contains("names no Openverse license"))
        }
    }

    @Test func aSiteConfigBuildsAnOpenverseGalleryWithItsKeys() async throws {
        try await withServer { server, workspace in
            let config = """
                title = "Open"
                [[gallery]]
                source = "openverse"
                term = "Hafen"
                per-page = 10
                endpoint = "\(await server.openverseEndpoint)"
                license = "reusable"
                mature = true
                """
            try Data(config.utf8).write(to: workspace.url.appendingPathComponent("vitrine.toml"))
            let outcome = try await VitrineProcess.run([
                "build", "--config", workspace.path("vitrine.toml"), "--cache", workspace.path("cache"), "--out",
                workspace.path("out"), "--retries", "0",
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(!outcome.stderr.contains("mature"))
            #expect(searches(server).first?.query["mature"] == "true")
            let model = try LibXMLDocument.parse(
                [UInt8](Data(contentsOf: workspace.url.appendingPathComponent("out/hafen/gallery.xml"))))
            #expect(model.strings("//item").count == 10)
            #expect(model.strings("//license/@copies").allSatisfy { $0 == "allowed" })
            try Data((config + "\nkey = \"x\"\n").utf8).write(to: workspace.url.appendingPathComponent("vitrine.toml"))
            let keyed = try await VitrineProcess.run([
                "build", "--config", workspace.path("vitrine.toml"), "--cache", workspace.path("cache"), "--out",
                workspace.path("out"),
            ])
            #expect(keyed.status == 64 && keyed.stderr.contains("OPENVERSE_TOKEN"), "\(keyed.stderr)")
        }
    }
}
