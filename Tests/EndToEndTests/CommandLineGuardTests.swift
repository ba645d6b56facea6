import Foundation
import SampleAPI
import Testing

/// Item 15: `serve` and `sample-api` on a port that is taken said so in a raw library string, with exit 1.
@Suite struct PortInUseTests {
    @Test(arguments: ["serve", "sample-api"])
    func aPortInUseIsOneSentenceWithTheDocumentedStatus(command: String) async throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(atPath: workspace.path("site"), withIntermediateDirectories: true)
        let (running, url) = try await VitrineProcess.serve(workspace.path("site"))
        defer { running.send(SIGKILL) }
        let port = try #require(url.split(separator: ":").last?.split(separator: "/").first.map(String.init))
        let outcome = try await VitrineProcess.run(
            [command] + (command == "serve" ? [workspace.path("site")] : []) + ["--port", port])
        #expect(outcome.status == ExitStatus.unavailable.rawValue, "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains("port \(port) is in use"), "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains("--port"), "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1, "stderr: \(outcome.stderr)")
        #expect(!outcome.stderr.contains("NIO") && !outcome.stderr.contains("errno"), "stderr: \(outcome.stderr)")
    }
}
