import Foundation
import SampleAPI
import Testing
import VitrineTemplates

@testable import VitrineBasics
@testable import VitrineModel
@testable import VitrinePublish
@testable import VitrineRender

/// A day's build of a site published on a schedule: its outcome, its pages and the history it wrote.
struct ScheduledPublish {
    var outcome: VitrineProcess.Outcome
    var site: SiteInspector
    var history: SiteHistory
    var folder: String
}

/// A site published on a schedule with `history = true`, as a CI job does it: every build on a fresh runner (empty
/// cache and output), its history taken from the previous publish, which `vitrine serve` hosts at the base URL. The
/// suites of site histories share these steps.
protocol PublishesOnASchedule {}

extension PublishesOnASchedule {
    typealias Publish = ScheduledPublish

    static var key: String { "history-key-5" }
    static var epoch: Int { 1_790_000_000 }

    /// Builds the site on day `day` into a fresh folder with a fresh cache, against a sample API whose search has
    /// `hits` results.
    func publish(
        day: Int, hits: Int, baseURL: String, in workspace: Workspace, extra: [String] = [], name: String? = nil,
        server given: SampleAPIServer? = nil, keep: String? = nil
    ) async throws -> Publish {
        let server = given ?? Self.server(hits: hits)
        if given == nil { try await server.start() }
        let folder = name ?? "day-\(day)"
        let outcome: VitrineProcess.Outcome
        do {
            let config = """
                title = "Snapshots"
                base-url = "\(baseURL)"
                history = true

                [[gallery]]
                source = "pixabay"
                term = "Hamburg"
                per-page = 10
                endpoint = "\(await server.pixabayEndpoint)"
                \(keep.map { "keep = \"\($0)\"" } ?? "")

                """
            try config.write(toFile: workspace.path("\(folder).toml"), atomically: true, encoding: .utf8)
            outcome = try await VitrineProcess.run(
                [
                    "build", "--config", workspace.path("\(folder).toml"), "--cache", workspace.path("\(folder)-cache"),
                    "--out", workspace.path(folder),
                ] + extra,
                environment: ["PIXABAY_API_KEY": Self.key, "SOURCE_DATE_EPOCH": String(Self.epoch + day * 86_400)])
        } catch {
            if given == nil { await server.stop() }
            throw error
        }
        if given == nil { await server.stop() }
        let root = workspace.url.appendingPathComponent(folder)
        let bytes = (try? Data(contentsOf: root.appendingPathComponent("history.json"))).map { [UInt8]($0) } ?? []
        return Publish(
            outcome: outcome, site: SiteInspector(root: root),
            history: (try? SiteHistory.decode(bytes, file: "history.json")) ?? .empty, folder: folder)
    }

    static func server(hits: Int) -> SampleAPIServer {
        SampleAPIServer(
            configuration: SampleAPIConfiguration(
                apiKey: Self.key, hitCounts: ["hamburg": hits, "hamburg graffiti": hits]))
    }

    /// The static host the site is published to: `vitrine serve` on an empty `public/`, and its base URL.
    func startHost(in workspace: Workspace) async throws -> (VitrineProcess.Running, String) {
        try FileManager.default.createDirectory(atPath: workspace.path("public"), withIntermediateDirectories: true)
        let host = try await VitrineProcess.serve(workspace.path("public"))
        return (host.running, host.url.hasSuffix("/") ? host.url : host.url + "/")
    }

    /// Replaces what the static host serves with `folder`, as a deploy step does.
    func deploy(_ folder: String, to host: String, in workspace: Workspace) throws {
        let manager = FileManager.default
        for name in try manager.contentsOfDirectory(atPath: workspace.path(host)) {
            try manager.removeItem(atPath: workspace.path(host + "/" + name))
        }
        for name in try manager.contentsOfDirectory(atPath: workspace.path(folder)) {
            try manager.copyItem(atPath: workspace.path(folder + "/" + name), toPath: workspace.path(host + "/" + name))
        }
    }

    func ids(_ publish: Publish) -> [String] {
        publish.history.galleries.first { $0.path == "hamburg/" }?.items.filter(\.current).map(\.id) ?? []
    }

    func feedEntries(_ publish: Publish) throws -> [String] {
        let feed = try LibXMLDocument.parse(
            [UInt8](Data(contentsOf: publish.site.root.appendingPathComponent("feed.xml"))))
        return feed.strings("//*[local-name()='entry']/*[local-name()='id']")
    }

    /// A history of `count` snapshots of `path` whose newest adds `current`, as a site running for months has it.
    static func longHistory(_ count: Int, path: String, current: [String]) -> SiteHistory {
        let snapshots = (1...count).map { number in
            SiteHistory.Snapshot(
                number: number,
                time: UTCTime.rfc3339(Date(timeIntervalSince1970: Double(epoch - (count + 1 - number) * 3_600))),
                galleries: [
                    .init(
                        path: path, added: number == count ? current : ["old-\(number)"],
                        removed: number == 1 ? [] : ["old-\(number - 1)"])
                ])
        }
        let items = current.map { SiteHistory.Item(id: $0, firstSeen: count, lastSeen: count, current: true) }
        return SiteHistory(
            format: SiteHistory.formatName, version: SiteHistory.currentVersion, snapshots: snapshots,
            galleries: [.init(path: path, items: items)])
    }
}
