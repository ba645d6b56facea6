import Foundation
import Synchronization

/// A process the tests start, on `posix_spawn` instead of Foundation's `Process`: in Swift 6.3.1 `Process.run()`
/// reads past a buffer while it lists the parent's open descriptors (swift-corelibs-foundation#5472) and once crashed
/// the test process. The child starts with default signal handlers, an empty signal mask and a process group of its
/// own, and holds no descriptor of this process but its standard input, output and error. A thread of its own waits
/// for it, so no cooperative thread blocks while it runs (the sample API it talks to runs on those threads).
package final class ChildProcess: Sendable {
    /// How a child ended.
    package enum Termination: Equatable, Sendable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// This signal killed it.
        case killed(by: Int32)
        /// Something else in this process reaped it first (SIGCHLD ignored, or `waitpid(-1)`): its status is lost.
        case lost

        /// As Foundation's `Process.terminationStatus` gives it: the exit status, or the number of the signal that
        /// killed the child; -1 if its status was lost.
        package var status: Int32 {
            switch self {
            case .exited(let status): status
            case .killed(let signal): signal
            case .lost: -1
            }
        }

        package var description: String {
            switch self {
            case .exited(let status): "exit status \(status)"
            case .killed(let signal): "killed by signal \(signal)"
            case .lost: "reaped by someone else"
            }
        }
    }

    /// How and when a child ended; the time is taken on the thread that saw it end, so a busy test process does not
    /// add its own scheduling delay to the child's running time.
    package struct Exit: Equatable, Sendable {
        package var termination: Termination
        package var time: Date
    }

    /// Where one of a child's standard streams comes from or goes to.
    package enum Stream: Sendable {
        /// /dev/null.
        case null
        /// A file: read for standard input; for output created if missing and appended to (so one file can take
        /// both standard output and standard error).
        case file(URL)
        /// A descriptor of this process, such as a pipe's end, duplicated into the child; the caller keeps its own.
        /// It must not be 0, 1 or 2.
        case descriptor(Int32)
    }

    private struct State {
        var exit: Exit?
        /// Set once the child is reaped: from then on its process identifier may belong to another process.
        var reaped = false
        var waiters: [CheckedContinuation<Exit, Never>] = []
    }

    package let processIdentifier: pid_t
    package let executable: URL
    package let arguments: [String]
    private let state = Mutex(State())

    /// Starts `executable` with `arguments` (its `argv[0]` is the executable's path), in `directory` (default: this
    /// process's), with `environment` (default: this process's) and the given standard streams, and returns at once.
    /// Throws, naming the executable, when it cannot be started.
    package init(
        _ executable: URL, arguments: [String] = [], environment: [String: String]? = nil, in directory: URL? = nil,
        standardInput: Stream = .null, standardOutput: Stream = .null, standardError: Stream = .null
    ) throws {
        self.executable = executable
        self.arguments = arguments
        processIdentifier = try Spawn.start(
            executable.path, arguments: [executable.path] + arguments, environment: environment,
            directory: directory?.path, streams: [standardInput, standardOutput, standardError])
        let reaper = Thread { [self] in reap() }
        reaper.name = "reaper of \(processIdentifier)"
        reaper.start()
    }

    /// Whether the child has not yet been seen to end.
    package var isRunning: Bool { state.withLock { $0.exit == nil } }

    /// How the child ended, or nil while it runs.
    package var termination: Termination? { state.withLock { $0.exit?.termination } }

    /// The termination's `status`, as Foundation's `Process` gives it; only to be read once the child has ended.
    package var terminationStatus: Int32 {
        guard let termination else {
            preconditionFailure("\(executable.path) still runs: wait for it before reading its status")
        }
        return termination.status
    }

    /// Sends `signal` to the child unless it has already been reaped (its identifier may then be another
    /// process's); whether the signal was sent.
    @discardableResult
    package func send(_ signal: Int32) -> Bool {
        state.withLock { $0.reaped ? false : kill(processIdentifier, signal) == 0 }
    }

    /// Waits, without holding a thread, until the child has ended.
    @discardableResult
    package func wait() async -> Exit {
        await withCheckedContinuation { continuation in
            let exit: Exit? = state.withLock { state in
                if state.exit == nil { state.waiters.append(continuation) }
                return state.exit
            }
            if let exit { continuation.resume(returning: exit) }
        }
    }

    /// Runs on the child's own thread: waits for it to end, leaving it unreaped so that `send` cannot signal a
    /// process that took its identifier, then reaps it and wakes the waiters.
    private func reap() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
        let time = Date()
        let (exit, waiters) = state.withLock { state in
            var status: Int32 = 0
            var reaped: pid_t
            repeat { reaped = waitpid(processIdentifier, &status, 0) } while reaped == -1 && errno == EINTR
            let termination = reaped == processIdentifier ? Self.termination(waitStatus: status) : .lost
            let exit = Exit(termination: termination, time: time)
            state.exit = exit
            state.reaped = true
            defer { state.waiters = [] }
            return (exit, state.waiters)
        }
        for waiter in waiters { waiter.resume(returning: exit) }
    }

    /// Without WUNTRACED a wait ends on an exit (its status in bits 8 to 15) or on a killing signal (the low seven
    /// bits).
    private static func termination(waitStatus status: Int32) -> Termination {
        status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .killed(by: status & 0x7F)
    }
}

/// Why a child process could not be started.
package struct ChildProcessError: Error, CustomStringConvertible {
    package var description: String
}
