import Foundation
import Synchronization
import VitrineBasics

/// Writes to standard output and standard error without ever ending the process: Foundation's
/// `FileHandle.write(_:)` crashes when a write fails (a full disk behind `2> log`, `--json > /dev/full`), and a
/// failed message must never turn a run into a crash. A report that could not be written to standard output is
/// remembered, so that the run ends with exit status 73 instead of success.
enum StandardStreams {
    private static let outputLost = Atomic<Bool>(false)

    /// Whether something meant for standard output could not be written.
    static var lostOutput: Bool { outputLost.load(ordering: .relaxed) }

    static func error(_ text: String) {
        _ = write(Array(text.utf8), to: STDERR_FILENO)
    }

    static func output(_ bytes: [UInt8]) {
        if let reason = write(bytes, to: STDOUT_FILENO) {
            outputLost.store(true, ordering: .relaxed)
            error("vitrine: Could not write the report to standard output: \(reason).\n")
        }
    }

    /// Writes all of `bytes`; returns why it failed, or nil.
    private static func write(_ bytes: [UInt8], to descriptor: Int32) -> String? {
        do {
            try bytes.withUnsafeBytes { try SystemCall.writeAll(descriptor, $0) }
            return nil
        } catch {
            return "\(error)"
        }
    }
}
