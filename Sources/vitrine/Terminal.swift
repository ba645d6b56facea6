import ArgumentParser
import Foundation
import Synchronization
import VitrineBasics
import VitrineHTTP
import VitrinePipeline
import VitrinePublish

/// Progress and messages on stderr: a live line on a terminal, nothing but warnings and the summary otherwise.
final class Terminal: Sendable {
    private let interactive: Bool
    private let quiet: Bool
    private let redactor: Redactor
    private let lineShown = Mutex(false)
    private let throttle = Mutex(ProgressThrottle())

    init(quiet: Bool, redactor: Redactor) {
        self.quiet = quiet
        self.redactor = redactor
        interactive = isatty(STDERR_FILENO) == 1 && !quiet
    }

    var report: @Sendable (ProgressEvent) -> Void {
        { [self] event in
            if case .warning(let text) = event { return message("warning: \(text)") }
            if case .waitingForOutput(let folder) = event, !interactive {
                return message("Waiting for another Vitrine run to finish writing into \(folder)…")
            }
            guard interactive, throttle.withLock({ $0.shouldShow(event, at: .now) }) else { return }
            switch event {
            case .searching(let label): progressLine("Searching \(label)…")
            case .images(let done, let total): progressLine("Images \(done)/\(total)")
            case .encoding(let done, let total): progressLine("Encoding \(done)/\(total)")
            case .rendering(let done, let total): progressLine("Pages \(done)/\(total)")
            case .waiting(let seconds, let reason): progressLine("\(reason), resuming in \(seconds) s")
            case .retrying(let reason, let attempt): progressLine("\(reason), retrying (attempt \(attempt + 1))")
            case .waitingForOutput(let folder): progressLine("Waiting for another run writing into \(folder)…")
            case .warning: break
            }
        }
    }

    /// Shows the transfer layer's waits and retries on the progress line.
    func reportTransfer(_ event: PoliteFetcher.Event) {
        switch event {
        case .waiting(let seconds, let reason): report(.waiting(seconds: seconds, reason: reason))
        case .retrying(_, let attempt, let reason): report(.retrying(reason: reason, attempt: attempt))
        }
    }

    func finish(_ summary: BuildSummary, output: String) {
        clearLine()
        guard !quiet else { return }
        message("\(summary.line). Open \(output)/index.html")
    }

    func finishRandom(_ summary: RandomRunSummary, output: String) {
        clearLine()
        guard !quiet else { return }
        message("\(summary.line). Open \(output)/index.html")
    }

    /// Says what went wrong in one sentence and returns the exit code to end with.
    func fail(_ error: any Error) -> ExitCode {
        clearLine()
        printError("vitrine: \(FailureReport.sentence(for: error))")
        return ExitCode(FailureReport.exitStatus(for: error).rawValue)
    }

    /// The `--json` report of a failed run on stdout: the sentence stderr got, with secrets redacted, and the exit
    /// status.
    func writeFailureJSON(_ error: any Error, exit: ExitCode, compact: Bool = false) {
        writeJSON(
            [
                "status": "failure", "error": redactor.redact(FailureReport.sentence(for: error)),
                "exitStatus": String(exit.rawValue),
            ],
            compact: compact)
    }

    /// A `--json` report on stdout with sorted keys; `compact` keeps it on one line.
    func writeJSON(_ report: [String: String], compact: Bool = false) {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            compact ? [.sortedKeys, .withoutEscapingSlashes] : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        if let data = try? encoder.encode(report) { StandardStreams.output(Array(data) + Array("\n".utf8)) }
    }

    private func progressLine(_ text: String) {
        guard interactive else { return }
        lineShown.withLock { shown in
            shown = true
            StandardStreams.error("\r\u{1B}[K\(Self.printable(redactor.redact(text)))")
        }
    }

    private func clearLine() {
        lineShown.withLock { shown in
            if shown { StandardStreams.error("\r\u{1B}[K") }
            shown = false
        }
    }

    private func message(_ text: String) {
        guard !quiet else { return }
        clearLine()
        printError(text)
    }

    private func printError(_ text: String) {
        StandardStreams.error(Self.printable(redactor.redact(text)) + "\n")
    }

    /// `text` with nothing a terminal would act on: control characters (C0, DEL, C1, which start escape sequences
    /// that can retitle the window, clear the screen or rewrite what was printed) and the bidirectional overrides
    /// that make text display other than it reads become spaces or are dropped. Messages quote what the network
    /// sent (an API's error body, a title), so every line passes through here.
    static func printable(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: result.append(" ")
            case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: continue
            default: result.append(scalar)
            }
        }
        return String(result)
    }
}
