import Dispatch
import Foundation
import Synchronization

/// Runs the build so that SIGINT, SIGTERM or the deadline cancel it cooperatively: transfers stop, files being
/// written are finished or never started, and the exit status says which it was. A second signal exits at once.
final class Interruption: Sendable {
    private let cause = Mutex<Stop?>(nil)

    /// Why a run stopped early.
    enum Stop: CommandLineFailure {
        case signal(Int32)
        case deadline(Int)

        var sentence: String {
            switch self {
            case .signal(SIGTERM): "Terminated (SIGTERM); nothing half-written was left behind."
            case .signal: "Interrupted; nothing half-written was left behind."
            case .deadline(let seconds): "The run took longer than the --deadline of \(seconds) s and was stopped."
            }
        }

        var exitStatus: ExitStatus {
            switch self {
            case .signal(SIGTERM): .terminated
            case .signal: .interrupted
            case .deadline: .timedOut
            }
        }
    }

    /// The reason the run was cut short, if it was.
    var reason: Stop? { cause.withLock { $0 } }

    func run<Result: Sendable>(deadline: Int?, _ body: @escaping @Sendable () async throws -> Result) async throws
        -> Result
    {
        let task = Task { try await body() }
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                let repeated = cause.withLock { cause -> Bool in
                    defer { cause = cause ?? .signal(number) }
                    return cause != nil
                }
                if repeated { _exit(128 + number) }
                task.cancel()
            }
            source.resume()
            return source
        }
        let timer = deadline.map { seconds in
            Task {
                try await Task.sleep(for: .seconds(seconds))
                cause.withLock { $0 = $0 ?? .deadline(seconds) }
                task.cancel()
            }
        }
        defer {
            timer?.cancel()
            sources.forEach { $0.cancel() }
        }
        return try await task.value
    }
}
