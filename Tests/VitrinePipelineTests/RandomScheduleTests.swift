import Foundation
import Synchronization
import Testing
import VitrineBasics
import VitrineTestSupport

@testable import VitrineHTTP
@testable import VitrineModel
@testable import VitrinePipeline
@testable import VitrineSources
@testable import VitrineStore

/// `--every` durations, the schedule, and the random-page pipeline on a fake network with a movable clock.
@Suite struct RandomScheduleTests {
    @Test func durationsTakeUnitsAndStayInRange() throws {
        #expect(try UpdateInterval.parse("30s").seconds == 30)
        #expect(try UpdateInterval.parse("10m").seconds == 600)
        #expect(try UpdateInterval.parse(" 1H ").seconds == 3_600)
        #expect(try UpdateInterval.parse("1h30m").seconds == 5_400)
        #expect(try UpdateInterval.parse("2d").seconds == 172_800)
        for bad in ["", "10", "m", "4s", "31d", "1x", "-5m", "1.5h", "10 m", "99999999s", "1h30"] {
            #expect(throws: UpdateIntervalError.self, "\(bad)") { try UpdateInterval.parse(bad) }
        }
        #expect(UpdateIntervalError(text: "1x").kind == .invalidArgument)
        #expect(try UpdateInterval.parse("90m").description == "1h30m")
        #expect(UpdateInterval(seconds: 4) == nil && UpdateInterval(seconds: 45)?.description == "45s")
    }

    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let tenMinutes = UpdateInterval(seconds: 600)!

    func state(fetchedAt: Date = start, next: Date? = nil, failure: RandomPageState.Failure? = nil) -> RandomPageState {
        RandomPageState(
            source: "picsum", delivery: .download, everySeconds: 600,
            photo: RandomPhoto(
                id: "1", author: "A", authorURL: nil, pageURL: nil, caption: nil, width: 10, height: 10,
                renditions: []),
            images: [], fetchedAt: fetchedAt, nextUpdate: next ?? fetchedAt.addingTimeInterval(600),
            lastFailure: failure)
    }

    @Test func theScheduleRunsFromTheLastUpdate() {
        let kept = state()
        #expect(RandomSchedule.isDue(nil, source: "picsum", at: Self.start))
        #expect(!RandomSchedule.isDue(kept, source: "picsum", at: Self.start.addingTimeInterval(599)))
        #expect(RandomSchedule.isDue(kept, source: "picsum", at: Self.start.addingTimeInterval(600)))
        #expect(RandomSchedule.isDue(kept, source: "unsplash", at: Self.start))
        let hourly = UpdateInterval(seconds: 3_600)!
        #expect(RandomSchedule.rescheduled(kept, every: hourly) == Self.start.addingTimeInterval(3_600))
        let failed = state(next: Self.start.addingTimeInterval(900), failure: .init(at: Self.start, reason: "x"))
        #expect(RandomSchedule.rescheduled(failed, every: hourly) == Self.start.addingTimeInterval(900))
        #expect(RandomSchedule.retry(afterFailureAt: Self.start, every: hourly) == Self.start.addingTimeInterval(300))
        #expect(
            RandomSchedule.retry(afterFailureAt: Self.start, every: UpdateInterval(seconds: 30)!)
                == Self.start.addingTimeInterval(30))
    }

    @Test func theStateRoundTripsThroughItsFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("random-state-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = state(failure: .init(at: Self.start, reason: "offline"))
        try Data(original.encoded()).write(to: folder.appendingPathComponent(RandomPageState.fileName))
        #expect(RandomPageState.read(in: folder) == original)
        try Data("{".utf8).write(to: folder.appendingPathComponent(RandomPageState.fileName))
        #expect(RandomPageState.read(in: folder) == nil)
        // In a site's folder, and never through a link.
        let site = folder.appendingPathComponent("random")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        let elsewhere = folder.appendingPathComponent("elsewhere.json")
        try Data(original.encoded()).write(to: elsewhere)
        try Data(original.encoded()).write(to: site.appendingPathComponent(RandomPageState.fileName))
        #expect(RandomPageState.read(in: folder, folder: "random/") == original)
        try FileManager.default.removeItem(at: site.appendingPathComponent(RandomPageState.fileName))
        try FileManager.default.createSymbolicLink(
            at: site.appendingPathComponent(RandomPageState.fileName), withDestinationURL: elsewhere)
        #expect(RandomPageState.read(in: folder, folder: "random/") == nil)
    }
}

/// The pipeline with a fake Picsum and a clock the test moves.
@Suite struct RandomPipelineTests {
    final class Clock: Sendable {
        private let value = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var now: Date { value.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { value.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    static let jpeg = try! Data(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/CSampleImages/images/city-01-640.jpg"))

    /// A Picsum that names photo 1, 2, 3… in turn (or fails while `down` is set).
    final class FakePicsum: Sendable {
        let fetcher: FakeFetcher

        init() {
            let state = Switches()
            switches = state
            fetcher = FakeFetcher { request in
                if state.down.withLock({ $0 }) {
                    return .failure(.transport(url: request.url, reason: "Connection refused"))
                }
                if request.url.hasSuffix("/info") {
                    let id = state.served.withLock {
                        $0 += 1
                        return $0
                    }
                    let body = #"{"id":"\#(id)","author":"Ann","width":1920,"height":1280}"#
                    return .success(FetchResponse(status: 200, body: Array(body.utf8), effectiveURL: request.url))
                }
                return .success(
                    FetchResponse(status: 200, body: [UInt8](RandomPipelineTests.jpeg), effectiveURL: request.url))
            }
        }

        let switches: Switches

        func setDown(_ value: Bool) { switches.down.withLock { $0 = value } }
    }

    final class Switches: Sendable {
        let down = Mutex(false)
        let served = Mutex(0)
    }

    @Test func dueRunsReplaceTheImageOthersKeepItAndFailuresKeepTheOldOne() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("random-pipeline-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = Clock()
        let picsum = FakePicsum()
        let pipeline = RandomPagePipeline(
            fetcher: picsum.fetcher, cache: CacheStore(root: folder.appendingPathComponent("cache")),
            now: { clock.now })
        let options = RandomPageOptions(
            build: BuildOptions(output: folder.appendingPathComponent("out")), every: .init(seconds: 600)!)
        let source = PicsumSource(endpoint: "https://picsum.example/")

        let first = try await pipeline.run(source, options: options)
        #expect(first.outcome == .updated && first.photoID == "1")
        #expect(first.nextUpdate == clock.now.addingTimeInterval(600))
        clock.advance(300)
        let early = try await pipeline.run(source, options: options)
        #expect(early.outcome == .kept && early.photoID == "1" && early.nextUpdate == first.nextUpdate)
        #expect(picsum.fetcher.requests.count == 3, "a run before the next update asks nothing")
        clock.advance(300)
        let due = try await pipeline.run(source, options: options)
        #expect(due.outcome == .updated && due.photoID == "2")
        clock.advance(600)
        picsum.setDown(true)
        let failed = try await pipeline.run(source, options: options)
        guard case .stale(let reason) = failed.outcome else {
            Issue.record("expected a stale outcome, got \(failed.outcome)")
            return
        }
        #expect(reason.contains("Connection refused") && failed.photoID == "2")
        #expect(failed.fetchedAt == due.fetchedAt && failed.nextUpdate == clock.now.addingTimeInterval(300))
        let model = try String(contentsOf: options.build.output.appendingPathComponent("gallery.xml"), encoding: .utf8)
        #expect(model.contains("<notice kind=\"stale\">A fresh image could not be loaded"))
        let state = try #require(RandomPageState.read(in: options.build.output))
        #expect(state.lastFailure != nil && state.photo.id == "2")
        picsum.setDown(false)
        clock.advance(300)
        let recovered = try await pipeline.run(source, options: options)
        #expect(recovered.outcome == .updated && recovered.photoID == "3")
        #expect(RandomPageState.read(in: options.build.output)?.lastFailure == nil)
    }

    @Test func offlineBeforeAnyImageIsExit66AndAKeyProblemIsNeverHidden() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("random-pipeline-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = RandomPagePipeline(
            fetcher: FakePicsum().fetcher, cache: CacheStore(root: folder.appendingPathComponent("cache")),
            now: Date.init)
        var options = RandomPageOptions(
            build: BuildOptions(output: folder.appendingPathComponent("out")), every: .init(seconds: 600)!)
        options.offline = true
        await #expect(throws: NoRandomImageYet.self) {
            try await pipeline.run(PicsumSource(endpoint: "https://picsum.example/"), options: options)
        }
        #expect(!FileManager.default.fileExists(atPath: options.build.output.appendingPathComponent("index.html").path))
        #expect(!RandomPagePipeline.previousImageMayStand(after: SourceError.keyRejected(source: "U", message: "m")))
        #expect(RandomPagePipeline.previousImageMayStand(after: SourceError.rateLimited(source: "U", message: "m")))
        #expect(RandomPagePipeline.previousImageMayStand(after: FetchError.transport(url: "u", reason: "r")))
    }
}
