import Foundation
import VitrineBasics

/// The mark a run leaves in its output folder (`.vitrine-journal`) from its first change until its manifest is
/// written: it names the paths the run may create that no manifest lists yet. Its presence tells the next run that
/// the one before was stopped half-way, so that it owns those paths and trusts no record it cannot verify.
/// The format is lines of text: `vitrine-journal 1`, then one output-relative path a line.
struct OutputJournal: Equatable {
    static let fileName = ".vitrine-journal"
    private static let header = "vitrine-journal 1"

    var paths: [String]

    init(paths: [String]) {
        self.paths = paths
    }

    func encoded() -> [UInt8] {
        Array(([Self.header] + paths.filter { !$0.contains("\n") }).joined(separator: "\n").utf8) + [0x0A]
    }

    /// Whether `root` holds a journal, read or not.
    static func isPresent(in root: URL) -> Bool {
        access(root.appendingPathComponent(fileName).path, F_OK) == 0
    }

    /// The journal in `root`: nil when there is none. One that cannot be read whole still marks the folder as
    /// interrupted, owning no path of its own.
    static func read(in root: URL) -> OutputJournal? {
        let files = RootedFiles(root: root.path)
        guard case .file = files.entry(fileName) else { return nil }
        guard let bytes = files.contents(fileName, limit: 64 << 20), bytes.last == 0x0A else {
            return OutputJournal(paths: [])
        }
        let lines = bytes.dropLast().split(separator: 0x0A, omittingEmptySubsequences: false)
        guard let first = lines.first, first.elementsEqual(header.utf8) else { return OutputJournal(paths: []) }
        return OutputJournal(paths: lines.dropFirst().map { String(decoding: $0, as: UTF8.self) })
    }
}
