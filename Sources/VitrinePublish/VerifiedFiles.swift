import Foundation
import VitrineBasics

/// The files of an output folder whose bytes Vitrine knows, each with the stamp it had when they were hashed or
/// written, kept in the cache (`builds/<digest of the folder's path>.verified`) so that a rebuild can tell with a
/// `stat` that a file still holds what the manifest records, instead of trusting its size or reading it.
///
/// It needs no care after a crash: a file replaced or edited since has another stamp (a new inode, or new
/// modification time), so an outdated entry only sends the writer to read and hash the file.
/// The format is lines of text: `vitrine-verified 1`, then `SHA256Hasher SIZE MTIME INODE PATH` (output-relative).
struct VerifiedFiles: Equatable, Sendable {
    private static let header = "vitrine-verified 1"

    /// A file's digest and the stamp it had when the digest was taken.
    struct Entry: Equatable, Sendable {
        var sha256: String
        var stamp: FileStamp
    }

    private var entries: [String: Entry] = [:]

    init() {}

    subscript(path: String) -> Entry? {
        get { entries[path] }
        set { entries[path] = newValue }
    }

    /// Whether the file at `path`, which has `stamp` now, was verified to hold bytes with the SHA-256 `sha256` and
    /// has not changed since: what it holds is then known without reading it.
    func vouch(for path: String, stamp: FileStamp, sha256: String) -> Bool {
        guard let known = entries[path] else { return false }
        return known.sha256 == sha256 && known.stamp == stamp
    }

    /// The record as its file holds it, in path order; entries whose path would break a line are left out.
    func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32 + 160 * entries.count)
        bytes.append(contentsOf: "\(Self.header)\n".utf8)
        for (path, entry) in entries.sorted(by: { $0.key < $1.key }) where !path.utf8.contains(0x0A) {
            bytes.append(contentsOf: entry.sha256.utf8)
            bytes.append(0x20)
            entry.stamp.appendFields(to: &bytes)
            bytes.append(0x20)
            bytes.append(contentsOf: path.utf8)
            bytes.append(0x0A)
        }
        return bytes
    }

    /// Reads the record at `path`; nil when there is none or it is not one as a whole (it is then ignored).
    static func read(atPath path: String) -> VerifiedFiles? {
        (try? FileBytes.read(atPath: path, limit: FileBytes.recordLimit)).flatMap(VerifiedFiles.init(bytes:))
    }

    init?(bytes: [UInt8]) {
        guard bytes.last == 0x0A else { return nil }
        let lines = bytes.dropLast().split(separator: 0x0A, omittingEmptySubsequences: false)
        guard let first = lines.first, first.elementsEqual(Self.header.utf8) else { return nil }
        entries.reserveCapacity(lines.count)
        for line in lines.dropFirst() {
            let fields = line.split(separator: 0x20, maxSplits: 4, omittingEmptySubsequences: false)
            guard fields.count == 5, fields[0].count == 64, !fields[4].isEmpty,
                let stamp = FileStamp(fields: fields[1...3])
            else { return nil }
            entries[String(decoding: fields[4], as: UTF8.self)] = Entry(
                sha256: String(decoding: fields[0], as: UTF8.self), stamp: stamp)
        }
    }
}
