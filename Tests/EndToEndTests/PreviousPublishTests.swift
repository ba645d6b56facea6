import Foundation
import SampleAPI
import Testing
import VitrineTemplates

@testable import VitrineBasics
@testable import VitrineModel
@testable import VitrinePublish
@testable import VitrineRender

/// The previous publish a build takes its history from: damaged, hostile, ahead of this clock, out of reach, never
/// finishing, or left by a stopped run, it stops the build in one sentence or is taken as far as it may be.
@Suite(.serialized) struct PreviousPublishTests: PublishesOnASchedule {
    @Test(arguments: [
        ("{\"format\":", "it is not a Vitrine history"),
        (
            #"{"format":"vitrine-history","version":1,"snapshots":[{"number":1,"time":"2026-01-01T00:00:00Z","galleries":[{"path":"../../","added":["<script>"],"removed":[]}]}],"galleries":[]}"#,
            "names the folder"
        ),
        // A snapshot dated far past the build's clock would stamp every later snapshot with its time.
        (
            #"{"format":"vitrine-history","version":1,"snapshots":[{"number":1,"time":"9999-12-31T00:00:00Z","galleries":[]}],"galleries":[]}"#,
            "snapshot 1 is dated 9999-12-31T00:00:00Z, more than a day past this build's clock"
        ),
    ])
    func aDamagedOrHostileHistoryStopsTheBuildInOneSentence(text: String, expected: String) async throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(atPath: workspace.path("previous"), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: workspace.path("previous/history.json")))
        let outcome = try await publish(
            day: 1, hits: 3, baseURL: "https://example.org/", in: workspace,
            extra: ["--history-from", workspace.path("previous/history.json")]
        ).outcome
        #expect(outcome.status != 0)
        let lines = outcome.stderr.split(separator: "\n").filter { $0.hasPrefix("vitrine: ") }
        #expect(lines.count == 1, "\(outcome.stderr)")
        #expect(lines.first?.contains("The history \(workspace.path("previous/history.json")) cannot be used") == true)
        #expect(lines.first?.contains(expected) == true, "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workspace.path("day-1/index.html")))
    }

    /// Clocks of the machines that take turns publishing a site differ by seconds: a snapshot a little ahead of this
    /// build's clock is taken, and the build's own snapshot is dated no earlier than it.
    @Test func aSnapshotSecondsAheadOfTheBuildsClockIsTakenAndTimeStaysInOrder() async throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(atPath: workspace.path("previous"), withIntermediateDirectories: true)
        let ahead = UTCTime.rfc3339(Date().addingTimeInterval(30))
        let text =
            #"{"format":"vitrine-history","version":1,"snapshots":[{"number":1,"time":"\#(ahead)","galleries":[]}],"#
            + #""galleries":[]}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: workspace.path("previous/history.json")))
        let publish = try await publish(
            day: 1, hits: 3, baseURL: "https://example.org/", in: workspace,
            extra: ["--history-from", workspace.path("previous/history.json")])
        #expect(publish.outcome.status == 0, "\(publish.outcome.stderr)")
        #expect(publish.history.snapshots.map(\.time) == [ahead, ahead])
    }

    @Test func aPreviousPublishThatCannotBeReachedStopsTheBuildRatherThanStartTheHistoryOver() async throws {
        let workspace = try Workspace()
        // Nothing listens on port 9 of loopback: the connection is refused.
        let unreachable = try await publish(
            day: 1, hits: 3, baseURL: "http://127.0.0.1:9/", in: workspace)
        #expect(unreachable.outcome.status == 69, "\(unreachable.outcome.stderr)")
        #expect(
            unreachable.outcome.stderr.contains(
                "The previous history at http://127.0.0.1:9/history.json could not be read"))
        #expect(!FileManager.default.fileExists(atPath: workspace.path("day-1/history.json")))

        // A history.json that is a link is not followed.
        try Data(SiteHistory.empty.encoded()).write(to: URL(fileURLWithPath: workspace.path("elsewhere.json")))
        try FileManager.default.createDirectory(atPath: workspace.path("linked"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: workspace.path("linked/history.json"), withDestinationPath: workspace.path("elsewhere.json"))
        let linked = try await publish(
            day: 1, hits: 3, baseURL: "http://127.0.0.1:9/", in: workspace,
            extra: ["--history-from", workspace.path("linked")], name: "day-1-linked")
        #expect(linked.outcome.status == 65, "\(linked.outcome.stderr)")
        #expect(linked.outcome.stderr.contains("history.json cannot be used: it is not a regular file"))
    }

    /// Issue 24, item 3: a previous publish whose `history.json` trickles in without end held the build forever;
    /// the transfer time limit ends it, naming the history's URL (exit 69, nothing written).
    @Test func aHistoryURLThatNeverFinishesRunsOutOfTime() async throws {
        let workspace = try Workspace()
        let trickling = SampleAPIServer(
            configuration: .init(faults: [SampleAPIFault(.trickle(bytesPerSecond: 300), on: .all)]))
        try await trickling.start()
        let base = await trickling.baseURL + "/"
        let publish = try await publish(
            day: 1, hits: 3, baseURL: base, in: workspace, extra: ["--transfer-timeout", "3", "--deadline", "90"])
        await trickling.stop()
        #expect(publish.outcome.status == 69, "\(publish.outcome.stderr)")
        #expect(
            publish.outcome.stderr.contains(
                "The previous history at \(base)history.json could not be read (Gave up on \(base)history.json: it had "
                    + "not finished after 3 s"), "\(publish.outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workspace.path("day-1")))
    }

    @Test func aHistoryAStoppedRunWroteIsNotTakenForTheLastFinishedBuilds() async throws {
        let workspace = try Workspace()
        let server = Self.server(hits: 4)
        try await server.start()
        do {
            let base = "https://example.org/"
            let empty = ["--history-from", workspace.path("none")]
            let first = try await publish(day: 1, hits: 4, baseURL: base, in: workspace, extra: empty, server: server)
            #expect(first.outcome.status == 0, "\(first.outcome.stderr)")
            let out = first.site.root
            let finished = try Data(contentsOf: out.appendingPathComponent("history.json"))
            // What a run stopped after it replaced history.json leaves: its own history (a snapshot more), the copy
            // of the finished one it kept aside, and its journal.
            let (stopped, _) = first.history.recording(
                [("hamburg/", ["x", "y"])], at: Date(timeIntervalSince1970: Double(Self.epoch + 5 * 86_400)))
            try finished.write(to: out.appendingPathComponent(".vitrine-history-previous.json"))
            try Data(stopped.encoded()).write(to: out.appendingPathComponent("history.json"))
            try Data("vitrine-journal 1\n".utf8).write(to: out.appendingPathComponent(".vitrine-journal"))

            let rerun = try await publish(
                day: 1, hits: 4, baseURL: base, in: workspace, extra: empty, name: first.folder, server: server)
            #expect(rerun.outcome.status == 0, "\(rerun.outcome.stderr)")
            #expect(try Data(contentsOf: out.appendingPathComponent("history.json")) == finished)
            #expect(
                !FileManager.default.fileExists(
                    atPath: out.appendingPathComponent(".vitrine-history-previous.json").path))

            // A history.json changed by hand since the last build is not taken for it.
            try Data(stopped.encoded()).write(to: out.appendingPathComponent("history.json"))
            let edited = try await publish(
                day: 2, hits: 4, baseURL: base, in: workspace, extra: empty, name: first.folder, server: server)
            #expect(edited.outcome.status == 65, "\(edited.outcome.stderr)")
            #expect(edited.outcome.stderr.contains("it is not the history the last build wrote"))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
