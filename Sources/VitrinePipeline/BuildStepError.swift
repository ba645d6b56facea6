import VitrineBasics

/// Runs `body` as the step `name` of a build: an error that a user could not act on as it is becomes a
/// `BuildStepError` saying which step failed, while a `UserFacingError` or a cancellation goes on unchanged, so that
/// its sentence and kind reach the command line.
func step<Result>(_ name: String, _ body: () async throws -> Result) async throws -> Result {
    do {
        return try await body()
    } catch let error as any UserFacingError {
        throw error
    } catch let error as CancellationError {
        throw error
    } catch {
        throw BuildStepError(step: name, detail: "\(error)")
    }
}

/// A step of a build failed in a way Vitrine does not foresee: a bug, or a failure of the system it runs on.
struct BuildStepError: UserFacingError {
    /// What the step does, as a phrase such as "placing the images".
    package let step: String
    package let detail: String

    package var sentence: String { "\(step.prefix(1).uppercased() + step.dropFirst()) failed: \(detail)." }
    package var kind: FailureKind { .internalInconsistency }
}
