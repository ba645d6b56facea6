import Foundation
import SampleAPI
import Testing

@testable import VitrineModel

/// `--now` sets the one clock a build decides every date with: builds as of successive days ask the API again each
/// day, as a daily CI job does, and stamp their history with that day.
@Suite struct BuildClockTests {
    static let key = "clock-key-1"

    /// A build of one Pixabay gallery with history on, as of `now`, into the workspace's `out` with its `cache`.
    static func build(
        as now: String, endpoint: String, in workspace: Workspace, environment: [String: String] = [:]
    ) async throws -> VitrineProcess.Outcome {
        try await VitrineProcess.run(
            [
                "pixabay", "Hamburg", "--no-variant", "--endpoint", endpoint, "--key", key, "--out",
                workspace.path("out"), "--cache", workspace.path("cache"), "--history", "--now", now,
            ], environment: environment)
    }

    static func history(in workspace: Workspace) throws -> SiteHistory {
        let bytes = try Data(contentsOf: workspace.url.appendingPathComponent("out/history.json"))
        return try SiteHistory.decode([UInt8](bytes), file: "history.json")
    }

    @Test func buildsAsOfSuccessiveDaysAskTheAPIOnceADayAndStampTheirHistoryWithTheirDay() async throws {
        try await withSampleAPI(SampleAPIConfiguration(apiKey: Self.key, hitCounts: ["hamburg": 8])) {
            server, workspace in
            let endpoint = await server.pixabayEndpoint
            let searches = { server.requests().filter { $0.path.hasPrefix("/api") }.count }

            let first = try await Self.build(as: "2031-03-01T06:00:00Z", endpoint: endpoint, in: workspace)
            #expect(first.status == 0, "\(first.stderr)")
            let daily = searches()
            #expect(daily >= 1)
            #expect(try Self.history(in: workspace).snapshots.map(\.time) == ["2031-03-01T06:00:00Z"])

            // Later the same day: the answers are fresh by the --now clock, so nothing is asked.
            let sameDay = try await Self.build(as: "2031-03-01T23:00:00Z", endpoint: endpoint, in: workspace)
            #expect(sameDay.status == 0, "\(sameDay.stderr)")
            #expect(searches() == daily)

            // Each next day, a day past the answers: asked again, once.
            for (day, now) in [(1, "2031-03-02T06:00:00Z"), (2, "2031-03-03T06:00:00Z")] {
                let outcome = try await Self.build(as: now, endpoint: endpoint, in: workspace)
                #expect(outcome.status == 0, "\(outcome.stderr)")
                #expect(searches() == daily * (day + 1), "day \(day)")
                let again = try await Self.build(as: now, endpoint: endpoint, in: workspace)
                #expect(again.status == 0 && again.stderr.contains("Up to date"), "\(again.stderr)")
                #expect(searches() == daily * (day + 1), "day \(day), built again")
            }
            // The same results every day: the one snapshot keeps its day.
            #expect(try Self.history(in: workspace).snapshots.map(\.time) == ["2031-03-01T06:00:00Z"])

            // The clock set back before the answers were fetched: they are not fresh for as long as it stays behind,
            // but asked for again.
            let back = try await Self.build(as: "2031-03-02T12:00:00Z", endpoint: endpoint, in: workspace)
            #expect(back.status == 0, "\(back.stderr)")
            #expect(searches() == daily * 4)
            let backAgain = try await Self.build(as: "2031-03-02T13:00:00Z", endpoint: endpoint, in: workspace)
            #expect(backAgain.status == 0, "\(backAgain.stderr)")
            #expect(searches() == daily * 4, "the answer fetched as of 12:00 is fresh at 13:00")
        }
    }

    /// `SOURCE_DATE_EPOCH` keeps its meaning, the time a build writes into its files, while `--now` still decides
    /// what is fresh.
    @Test func sourceDateEpochStampsTheSnapshotAndNowDecidesWhatIsFresh() async throws {
        try await withSampleAPI(SampleAPIConfiguration(apiKey: Self.key, hitCounts: ["hamburg": 8])) {
            server, workspace in
            let endpoint = await server.pixabayEndpoint
            let searches = { server.requests().filter { $0.path.hasPrefix("/api") }.count }
            let epoch = ["SOURCE_DATE_EPOCH": "1900000000"]  // 2030-03-17T17:46:40Z
            let first = try await Self.build(
                as: "2031-03-01T06:00:00Z", endpoint: endpoint, in: workspace, environment: epoch)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(try Self.history(in: workspace).snapshots.map(\.time) == ["2030-03-17T17:46:40Z"])
            let daily = searches()
            let next = try await Self.build(
                as: "2031-03-02T06:00:00Z", endpoint: endpoint, in: workspace, environment: epoch)
            #expect(next.status == 0, "\(next.stderr)")
            #expect(searches() == 2 * daily)
        }
    }
}
