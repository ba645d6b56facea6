import ArgumentParser
import VitrineBasics

/// Writes the files that `vitrine init` and `vitrine theme export` start a user off with: all of them or none (see
/// ``NewFiles``), then lists them on standard output. A refusal or a failed write is one sentence on standard error
/// and exit status 73.
enum StarterFiles {
    static func write(_ files: NewFiles) throws {
        do {
            try files.write()
        } catch {
            StandardStreams.error("vitrine: \(FailureReport.sentence(for: error))\n")
            throw ExitCode(FailureReport.exitStatus(for: error).rawValue)
        }
        StandardStreams.output(Array(files.files.map { "Wrote \(files.shown($0.path))\n" }.joined().utf8))
    }

    /// `text` as one word of a shell command: as it is when it is safe so, else in single quotes.
    static func shellWord(_ text: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/+=:,@%")
        if !text.isEmpty && text.allSatisfy(plain.contains) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
