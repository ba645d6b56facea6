import Foundation
import SampleAPI
import Testing
import VitrineTestSupport

/// The built `vitrine` executable, run as a user would, with its output captured.
struct VitrineProcess {
    struct Outcome {
        /// The exit status, or the number of the signal that killed the process (as `terminationStatus`).
        var status: Int32
        var termination: ChildProcess.Termination
        var stdout: String
        var stderr: String
        /// When the process was reaped, taken on the thread that saw it exit, so a busy test process does not add its
        /// own scheduling delay to the process's running time.
        var exited: Date
    }

    /// The root of the package, where README.md is.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["VITRINE_BINARY"] { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("vitrine")
    }

    /// A `vitrine` process started in the background, to be signalled or waited for.
    final class Running {
        let process: ChildProcess
        let scratch: URL

        init(process: ChildProcess, scratch: URL) {
            self.process = process
            self.scratch = scratch
        }

        func send(_ signal: Int32) { process.send(signal) }

        /// What the process has printed on stdout so far, and lines to wait for.
        var stdout: PrintedLines { PrintedLines(file: scratch.appendingPathComponent("stdout")) }
        /// What the process has printed on stderr so far, and lines to wait for.
        var stderr: PrintedLines { PrintedLines(file: scratch.appendingPathComponent("stderr")) }

        /// Waits for the process to exit. A process still running after `limit` is killed and the test fails: the
        /// limit only keeps a broken run from hanging the suite, it is not a measure of speed.
        func wait(atMost limit: Duration = .seconds(600)) async throws -> Outcome {
            let guardian = Task { [process] in
                guard (try? await Task.sleep(for: limit)) != nil, process.isRunning else { return }
                Issue.record("\(process.arguments) still ran after \(limit): killed")
                process.send(SIGKILL)
            }
            defer { guardian.cancel() }
            let exit = await process.wait()
            defer { try? FileManager.default.removeItem(at: scratch) }
            return Outcome(
                status: process.terminationStatus, termination: exit.termination,
                stdout: try String(contentsOf: scratch.appendingPathComponent("stdout"), encoding: .utf8),
                stderr: try String(contentsOf: scratch.appendingPathComponent("stderr"), encoding: .utf8),
                exited: exit.time)
        }
    }

    /// `vitrine serve` on `folder`, started, with its base URL from the line it prints once it listens.
    static func serve(_ folder: String) async throws -> (running: Running, url: String) {
        let running = try launch(["serve", folder, "--port", "0"])
        let printed = await running.stdout.line(containing: "http://127.0.0.1:") ?? ""
        let base = printed.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map(String.init)
        return (running, try #require(base, "vitrine serve did not say where it listens"))
    }

    /// The environment a `vitrine` run gets: this process's without any API key, a cache of its own under
    /// `scratch`, and `extra`.
    static func environment(_ extra: [String: String] = [:], scratch: URL) -> [String: String] {
        var base = ProcessInfo.processInfo.environment.filter { !$0.key.hasSuffix("_API_KEY") }
        base["XDG_CACHE_HOME"] = scratch.appendingPathComponent("xdg").path
        return base.merging(extra) { $1 }
    }

    /// Starts `vitrine` (or `executable`) with `arguments`, an environment without any API key unless given, in
    /// `directory` (default: a scratch folder), and returns at once.
    static func launch(
        _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil,
        executable: URL = binary
    ) throws -> Running {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw ProcessError(message: "\(binary.path) is missing: run `swift build` before the tests")
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        do {
            let process = try ChildProcess(
                executable, arguments: arguments, environment: Self.environment(environment, scratch: scratch),
                in: directory ?? scratch, standardOutput: .file(scratch.appendingPathComponent("stdout")),
                standardError: .file(scratch.appendingPathComponent("stderr")))
            return Running(process: process, scratch: scratch)
        } catch {
            try? FileManager.default.removeItem(at: scratch)
            throw error
        }
    }

    /// Runs `vitrine` (or `executable`) with `arguments` to the end; see `launch`.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil,
        executable: URL = binary
    ) async throws -> Outcome {
        try await launch(arguments, environment: environment, in: directory, executable: executable).wait()
    }
}

/// One of a child process's output files. A test waits for a line the process prints once it has reached a state
/// (it listens, it waits for a lock, it kept or replaced an image) instead of sleeping for a while and hoping.
struct PrintedLines {
    let file: URL

    var text: String { (try? String(contentsOf: file, encoding: .utf8)) ?? "" }

    /// Waits until a line holding `text` has been printed and returns it; nil (and the test fails) if none has been
    /// after five minutes, a limit that only keeps a broken run from hanging the suite. (The file is read every
    /// 20 ms; a file, unlike a pipe, keeps what was printed for the outcome and never fills.)
    func line(containing text: String) async -> String? {
        let limit = ContinuousClock.now + .seconds(300)
        while ContinuousClock.now < limit {
            if let line = self.text.split(separator: "\n").first(where: { $0.contains(text) }) { return String(line) }
            guard (try? await Task.sleep(for: .milliseconds(20))) != nil else { break }
        }
        Issue.record("the process did not print “\(text)” within five minutes")
        return nil
    }
}

struct ProcessError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A scratch folder for one test: output, cache, theme copies.
final class Workspace: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Every regular file below `folder`, by relative path, with its bytes.
    func tree(_ folder: String) throws -> [String: Data] {
        let root = url.appendingPathComponent(folder)
        var files: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [:] }
        for case let relative as String in walker {
            let file = root.appendingPathComponent(relative)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder), !isFolder.boolValue {
                files[relative] = try Data(contentsOf: file)
            }
        }
        return files
    }
}

/// A test's set-up that runs a server of its own, to be stopped when the test ends.
protocol StoppableFixture: Sendable {
    func stop() async
}

/// Runs `body`, then stops `fixture` and waits for it, however `body` ends: the next test never starts while this
/// one's server still runs (a `defer` can only hand the stop to a detached task).
func stopping<Result>(_ fixture: some StoppableFixture, _ body: () async throws -> Result) async throws -> Result {
    do {
        let result = try await body()
        await fixture.stop()
        return result
    } catch {
        await fixture.stop()
        throw error
    }
}

/// Runs `body` with a started sample API of `configuration` and a fresh workspace, and stops the server whether
/// `body` returns or throws.
func withSampleAPI(
    _ configuration: SampleAPIConfiguration, _ body: (SampleAPIServer, Workspace) async throws -> Void
) async throws {
    let server = SampleAPIServer(configuration: configuration)
    try await server.start()
    let workspace = try Workspace()
    do {
        try await body(server, workspace)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}

/// The exit statuses README.md documents, as a user's script would spell them.
enum ExitStatus: Int32, CaseIterable {
    case success = 0
    case failure = 1
    case partial = 2
    case usage = 64
    case badData = 65
    case nothingCached = 66
    case unavailable = 69
    case cannotWrite = 73
    case timedOut = 75
    case keyProblem = 77
    case templateProblem = 78
    case interrupted = 130
    case terminated = 143
}
