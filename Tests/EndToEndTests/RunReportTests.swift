import Foundation
import SampleAPI
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrineBasics
@testable import VitrinePublish
@testable import VitrineRender

/// What a run against a misbehaving API says: a JSON report that tells success, partial and failure apart, no crash
/// when its own output cannot be written, and no terminal escape from the network.
@Suite struct RunReportTests: BuildsAgainstFaults {
    @Test func theJSONReportTellsSuccessPartialAndFailureApart() async throws {
        let scenario = try await Scenario([SampleAPIFault(.wrongContentType, on: .images, times: 1)])
        try await stopping(scenario) {
            func report(_ extra: [String]) async throws -> (Int32, [String: Any]) {
                let outcome = try await scenario.build(extra + ["--json"])
                let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
                return (outcome.status, object ?? [:])
            }
            let (partialStatus, partial) = try await report(["--strict"])
            #expect(partialStatus == 2 && partial["status"] as? String == "partial")
            let summary = try #require(partial["summary"] as? [String: Any])
            #expect(summary["items"] as? Int == 5 && summary["imagesFailed"] as? Int == 1)
            let (_, success) = try await report(["--out", scenario.workspace.path("other")])
            #expect(success["status"] as? String == "success")
            let (failureStatus, failure) = try await report(["--offline", "--cache", scenario.workspace.path("empty")])
            #expect(failureStatus == 66 && failure["status"] as? String == "failure")
            #expect((failure["error"] as? String)?.contains("--offline") == true)
        }
    }

    /// Found by scripts/chaos (ENOSPC on the Nth write): a message that could not be written, as behind `2> log` on a
    /// full disk, crashed the run. Now a lost message changes nothing, and a lost `--json` report is exit 73.
    @Test func aFullStandardOutputOrErrorNeverCrashesARun() async throws {
        let scenario = try await Scenario([])
        try await stopping(scenario) {
            func run(_ extra: [String], fullOutput: Bool) async throws -> (status: Int32, stderr: String) {
                let log = scenario.workspace.url.appendingPathComponent("stderr-\(UUID().uuidString)")
                _ = FileManager.default.createFile(atPath: log.path, contents: nil)
                let full = ChildProcess.Stream.file(URL(fileURLWithPath: "/dev/full"))
                let process = try ChildProcess(
                    VitrineProcess.binary, arguments: scenario.arguments(extra),
                    standardOutput: fullOutput ? full : .null, standardError: fullOutput ? .file(log) : full)
                await process.wait()
                return (process.terminationStatus, try String(contentsOf: log, encoding: .utf8))
            }
            #expect(try await run([], fullOutput: false).status == 0)
            #expect(
                try await run(["--offline", "--cache", scenario.workspace.path("none")], fullOutput: false).status == 66
            )
            let report = try await run(["--json"], fullOutput: true)
            #expect(report.status == 73, "\(report.stderr)")
            #expect(report.stderr.contains("Could not write the report to standard output: No space left on device."))
            #expect(!report.stderr.contains("Fatal error"))
        }
    }

    @Test func terminalEscapesFromTheNetworkNeverReachTheTerminal() async throws {
        let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}31mRejected\u{202E}txt.exe\r\nby the API"
        let scenario = try await Scenario([SampleAPIFault(.status(400, body: hostile), on: .api)])
        try await stopping(scenario) {
            let outcome = try await scenario.build(["--retries", "0"])
            #expect(outcome.status == 69 || outcome.status == 65, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("Rejected"), "the API's own message is still shown: \(outcome.stderr)")
            let lines = outcome.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 2 && lines[1].isEmpty, "one sentence, one line: \(outcome.stderr)")
            let controls = outcome.stderr.unicodeScalars.filter {
                ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
                    || (0x202A...0x202E).contains($0.value)
            }
            #expect(controls.isEmpty, "\(controls.map { String($0.value, radix: 16) })")
        }
    }
}
