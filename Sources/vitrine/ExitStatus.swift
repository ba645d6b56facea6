import VitrineBasics

/// The documented exit statuses of `vitrine`, one per kind of failure a user can act on.
enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    case failure = 1
    case partial = 2
    case usage = 64
    case badData = 65
    case nothingCached = 66
    case unavailable = 69
    case cannotWrite = 73
    case keyProblem = 77
    case timedOut = 75
    case templateProblem = 78
    case interrupted = 130
    case terminated = 143

    /// The status of a run that failed with an error of `kind`.
    init(_ kind: FailureKind) {
        self =
            switch kind {
            case .internalInconsistency: .failure
            case .incomplete: .partial
            case .invalidArgument: .usage
            case .badData: .badData
            case .nothingCached: .nothingCached
            case .unavailable: .unavailable
            case .cannotWrite: .cannotWrite
            case .keyProblem: .keyProblem
            case .temporary: .timedOut
            case .templateProblem: .templateProblem
            }
    }

    /// What the status means, as the README and `--help` list it.
    var meaning: String {
        switch self {
        case .success: "the gallery was written"
        case .failure: "an unexpected internal error"
        case .partial: "--strict was given and the gallery lacks something"
        case .usage: "the command line is wrong"
        case .badData: "the API or a shard folder held data Vitrine cannot read"
        case .nothingCached: "--offline or --frozen was given and something needed is not cached"
        case .unavailable: "the API could not be reached, or the port to listen on was taken"
        case .cannotWrite: "the output or cache folder could not be written"
        case .keyProblem: "the API key is missing or was rejected"
        case .timedOut: "passed --deadline, or another run was busy (--no-wait, cache prune)"
        case .templateProblem: "a template is missing or broken, or went past its memory or time limit"
        case .interrupted: "interrupted (SIGINT, Ctrl-C)"
        case .terminated: "terminated (SIGTERM)"
        }
    }
}
