import Foundation
import SampleAPI
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrineBasics
@testable import VitrinePublish
@testable import VitrineRender

/// A server with `faults`, a workspace, and a way to build a small gallery (5 items, two variants) from it.
final class FaultScenario: StoppableFixture {
    static let key = "fault-key-77"

    let server: SampleAPIServer
    let workspace: Workspace
    let endpoint: String

    init(_ faults: [SampleAPIFault], rateLimit: Int = 100, rateWindowSeconds: Int = 60) async throws {
        server = SampleAPIServer(
            configuration: SampleAPIConfiguration(
                apiKey: FaultScenario.key, rateLimit: rateLimit, rateWindowSeconds: rateWindowSeconds,
                faults: faults))
        workspace = try Workspace()
        try await server.start()
        endpoint = await server.pixabayEndpoint
    }

    func arguments(_ extra: [String] = [], out: String = "out", endpoint: String? = nil) -> [String] {
        [
            "pixabay", "Hamburg", "--per-page", "5", "--endpoint", endpoint ?? self.endpoint, "--key",
            FaultScenario.key, "--cache", workspace.path("cache"), "--out", workspace.path(out),
        ] + extra
    }

    func build(_ extra: [String] = [], out: String = "out") async throws -> VitrineProcess.Outcome {
        try await VitrineProcess.run(arguments(extra, out: out))
    }

    func requests(_ prefix: String) -> [SampleAPIRequest] { server.requests().filter { $0.path.hasPrefix(prefix) } }

    var site: SiteInspector { SiteInspector(root: workspace.url.appendingPathComponent("out")) }

    /// Temporary files anywhere in the output or the cache.
    func leftovers() throws -> [String] {
        try (workspace.tree("out").keys.map { "out/\($0)" } + workspace.tree("cache").keys.map { "cache/\($0)" })
            .filter {
                ($0 as NSString).lastPathComponent.contains(".vitrine-") && !$0.hasSuffix(OutputManifest.fileName)
            }
    }

    func stop() async { await server.stop() }
}

/// The suites that build against a misbehaving sample API share its scenario and what a whole gallery looks like.
protocol BuildsAgainstFaults {}

extension BuildsAgainstFaults {
    typealias Scenario = FaultScenario

    static var key: String { FaultScenario.key }

    func expectCompleteGallery(_ scenario: Scenario, items: Int = 5) throws {
        let crawl = try scenario.site.crawl()
        #expect(crawl.broken == [])
        for image in crawl.files where image.hasPrefix("images/") {
            let bytes = try Data(contentsOf: scenario.site.root.appendingPathComponent(image))
            #expect(ImageFormat.sniff(bytes) == .jpeg && bytes.suffix(2) == Data([0xFF, 0xD9]), "\(image) is damaged")
        }
        let model = try LibXMLDocument.parse(
            [UInt8](Data(contentsOf: scenario.site.root.appendingPathComponent("gallery.xml"))))
        #expect(model.strings("//item").count == items)
        #expect(model.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [])
    }

    /// Builds from `scenario`, whose images are all broken, and checks that each became a placeholder saying
    /// `reason`, and that the run still succeeded with no broken link.
    func expectEveryImageAPlaceholder(_ scenario: Scenario, saying reason: String) async throws {
        let outcome = try await scenario.build()
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("failed"))
        let index = try scenario.site.page("index.html")
        #expect(index.strings("//main//img").isEmpty)
        #expect(index.strings("//main").joined().contains(reason))
        #expect(try scenario.site.crawl().broken == [])
    }
}
