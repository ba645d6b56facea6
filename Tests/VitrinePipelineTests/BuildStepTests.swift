import Foundation
import Testing
import VitrineBasics

@testable import VitrinePipeline
@testable import VitrineStore

/// A build is a flow of named steps (`GalleryBuild.run`): an error a user cannot act on says which step failed,
/// while the errors the command line tells apart reach it unchanged.
@Suite struct BuildStepTests {
    struct DiskFull: Error, CustomStringConvertible {
        var description: String { "no space left on device" }
    }

    @Test func anUnexpectedErrorSaysWhichStepFailed() async throws {
        do {
            _ = try await step("placing the images") { () throws -> Int in throw DiskFull() }
            Issue.record("the step went on")
        } catch let error as BuildStepError {
            #expect(error.sentence == "Placing the images failed: no space left on device.")
            #expect(error.kind == .internalInconsistency)
        }
    }

    @Test func errorsAUserCanActOnAndCancellationKeepTheirTypeAndKind() async throws {
        await #expect(throws: NothingCachedError.self) {
            try await step("reading the answers") { throw NothingCachedError(url: "https://x/") }
        }
        await #expect(throws: CancellationError.self) {
            try await step("placing the images") { throw CancellationError() }
        }
        let named = try await step("counting") { 42 }
        #expect(named == 42)
    }
}
