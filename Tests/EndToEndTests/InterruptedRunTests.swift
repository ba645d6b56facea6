import Foundation
import SampleAPI
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrineBasics
@testable import VitrinePublish
@testable import VitrineRender

/// A run stopped by its deadline, a signal or a kill leaves nothing behind, and the next run is correct.
@Suite struct InterruptedRunTests: BuildsAgainstFaults {
    /// Every answer is held for ten minutes, longer than the test waits for a run: only the deadline can end it.
    @Test func theDeadlineStopsARunAndLeavesNothingBehind() async throws {
        let scenario = try await Scenario([SampleAPIFault(.delay(milliseconds: 600_000), on: .all)])
        try await stopping(scenario) {
            let outcome = try await VitrineProcess.launch(scenario.arguments(["--deadline", "1"])).wait(
                atMost: .seconds(300))
            #expect(outcome.status == 75)
            #expect(outcome.stderr.contains("--deadline"))
            #expect(try scenario.leftovers() == [])
        }
    }

    /// Every image is held for ten minutes, longer than the test waits for a run: only the signal can end it.
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalsCancelPromptlyAndLeaveNothingBehind(signal: Int32, status: Int32) async throws {
        let scenario = try await Scenario([SampleAPIFault(.delay(milliseconds: 600_000), on: .images)])
        try await stopping(scenario) {
            let running = try VitrineProcess.launch(scenario.arguments())
            // Signalled once the run waits on its first image, so its handlers are surely in place.
            let asked = await scenario.server.requests { $0.path.hasSuffix(".jpg") }
            #expect(asked != nil, "the run never asked for an image")
            running.send(signal)
            let outcome = try await running.wait(atMost: .seconds(300))
            #expect(outcome.status == status)
            #expect(outcome.stderr.split(separator: "\n").count == 1)
            #expect(try scenario.leftovers() == [])
            #expect(!FileManager.default.fileExists(atPath: scenario.workspace.path("out/index.html")))
        }
    }

    /// Each run is killed once it has got so far (it asked for its first search, for its second, for its first image,
    /// for its tenth, for its twentieth of the 66 not yet cached), however fast the machine runs it; then one runs to
    /// the end.
    @Test func aRunKilledAtAnyMomentIsFollowedByACorrectOne() async throws {
        let scenario = try await Scenario([SampleAPIFault(.delay(milliseconds: 40), on: .all)])
        try await stopping(scenario) {
            let search: @Sendable (SampleAPIRequest) -> Bool = { $0.path.hasPrefix("/api") }
            let image: @Sendable (SampleAPIRequest) -> Bool = { !$0.path.hasPrefix("/api") }
            for (count, matching) in [(1, search), (2, search), (1, image), (10, image), (20, image)] {
                scenario.server.resetRequests()
                let running = try VitrineProcess.launch(scenario.arguments(["--pages", "4", "--refresh"]))
                let reached = await scenario.server.requests(atLeast: count, matching: matching)
                #expect(reached != nil, "the run did not get as far as it was to be killed")
                running.send(SIGKILL)
                _ = try await running.wait()
            }
            let outcome = try await scenario.build(["--pages", "4"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            try expectCompleteGallery(scenario, items: 20)
            #expect(try scenario.leftovers() == [])
        }
    }
}
