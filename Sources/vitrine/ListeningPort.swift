import ArgumentParser
import Foundation
import NIOCore
import SampleAPI

/// `serve`, `sample-api` or `demo` cannot listen on the port asked for: another program holds it.
struct PortInUseError: CommandLineFailure {
    let port: Int
    var sentence: String {
        "Cannot listen on 127.0.0.1: port \(port) is in use by another program; stop that program, or pass another "
            + "--port (0 picks a free one)."
    }
    var exitStatus: ExitStatus { .unavailable }
}

/// Starting a server on a port the user chose.
enum ListeningPort {
    /// Runs `start`; a port that is taken ends the run with ``PortInUseError``'s sentence and exit status, any other
    /// failure is rethrown.
    static func bind<Result>(_ port: Int, _ start: () async throws -> Result) async throws -> Result {
        do {
            return try await start()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw report(PortInUseError(port: port))
        } catch SampleAPIServerError.portInUse(let taken) {
            throw report(PortInUseError(port: Int(taken)))
        }
    }

    private static func report(_ failure: PortInUseError) -> ExitCode {
        StandardStreams.error("vitrine: \(FailureReport.sentence(for: failure))\n")
        return ExitCode(failure.exitStatus.rawValue)
    }
}
