import Foundation
import Testing
import VitrineBasics

@testable import VitrinePipeline
@testable import VitrineStore

/// A build is a list of named steps: they run in order until one fails or the build is over, and an error a user
/// cannot act on says which step failed, while the errors the command line tells apart reach it unchanged.
@Suite struct BuildStepTests {
    struct DiskFull: Error, CustomStringConvertible {
        var description: String { "no space left on device" }
    }

    func steps(failing error: (any Error)? = nil) -> [BuildStep<[String]>] {
        [
            .init("reading the answers") { $0.append("read") },
            .init("placing the images") {
                if let error { throw error }
                $0.append("placed")
            },
            .init("writing the manifest") { $0.append("wrote") },
        ]
    }

    @Test func stepsRunInOrderUntilTheBuildIsOver() async throws {
        var done: [String] = []
        try await BuildStep.run(steps(), on: &done, until: { _ in false })
        #expect(done == ["read", "placed", "wrote"])
        var early: [String] = []
        try await BuildStep.run(steps(), on: &early, until: { $0.count == 2 })
        #expect(early == ["read", "placed"])
    }

    @Test func anUnexpectedErrorSaysWhichStepFailed() async throws {
        var done: [String] = []
        do {
            try await BuildStep.run(steps(failing: DiskFull()), on: &done, until: { _ in false })
            Issue.record("the build went on")
        } catch let error as BuildStepError {
            #expect(error.sentence == "Placing the images failed: no space left on device.")
            #expect(error.kind == .internalInconsistency)
        }
        #expect(done == ["read"])
    }

    @Test func errorsAUserCanActOnAndCancellationKeepTheirTypeAndKind() async throws {
        var done: [String] = []
        await #expect(throws: NothingCachedError.self) {
            try await BuildStep.run(
                steps(failing: NothingCachedError(url: "https://x/")), on: &done, until: { _ in false })
        }
        await #expect(throws: CancellationError.self) {
            try await BuildStep.run(steps(failing: CancellationError()), on: &done, until: { _ in false })
        }
        let named = try await step("counting") { 42 }
        #expect(named == 42)
    }
}
