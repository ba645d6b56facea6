/// What kind of failure an error is: the part of an error a front end needs to decide how to report it (the command
/// line ends each kind in a way of its own).
public enum FailureKind: Sendable, Hashable, CaseIterable {
    /// Vitrine found itself in a state it should never reach.
    case internalInconsistency
    /// The build finished, but the gallery lacks something and the caller asked for all or nothing.
    case incomplete
    /// A value the caller gave is not one Vitrine accepts.
    case invalidArgument
    /// The API answered with data Vitrine cannot read.
    case badData
    /// Working without the network, something needed is not cached.
    case nothingCached
    /// The API could not be reached or refused the request.
    case unavailable
    /// The output or cache folder could not be written.
    case cannotWrite
    /// The API key is missing or was rejected.
    case keyProblem
    /// Something is busy or exhausted for now; the same run later may succeed.
    case temporary
    /// A template is missing or broken.
    case templateProblem
}

/// An error that can be told to a user in one sentence, with the kind of failure it is.
///
/// The sentence names no command-line flag: the front end, which knows its flags, may say more.
public protocol UserFacingError: Error, CustomStringConvertible {
    /// One plain sentence saying what happened and, where possible, what to do.
    var sentence: String { get }
    var kind: FailureKind { get }
}

extension UserFacingError {
    /// An error prints as its sentence, in string interpolation and in logs.
    public var description: String { sentence }
}
