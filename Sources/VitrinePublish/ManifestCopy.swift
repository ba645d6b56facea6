import Foundation
import VitrineBasics

/// The output manifest's list of files as the cache keeps a copy of it (`builds/<digest of the folder's path>.files`),
/// in lines that a rebuild reads in a fraction of the time decoding the manifest's JSON takes (3.6 MB at 1,000
/// items: BENCHMARKS.md, "Figures behind the code").
///
/// The copy is taken only for the manifest whose bytes hash to the SHA-256 it records, so a manifest changed in any
/// way since the copy was made (by hand, by another version of Vitrine, by a run killed between writing the
/// manifest and its copy) is decoded as before: the copy can be missing or out of date, never wrong. It holds no
/// galleries, only the digest of their encoding, which is all a rebuild compares them by; a build that needs them
/// (a frozen one) decodes the manifest.
///
/// The format is lines of text: `vitrine-manifest-files 1`, `manifest SHA256 GALLERIES-DIGEST`, then for each file
/// `file SHA256 SIZE INPUTS URL-COUNT PATH` (`-` for no size, no inputs or no list of URLs) and its URLs, a line
/// each, and last `check SHA256` of all the bytes before that line, so that a copy damaged in any way is no copy.
struct ManifestCopy: Equatable, Sendable {
    private static let header = "vitrine-manifest-files 1"

    /// The SHA-256 of the manifest file's bytes that this is a copy of.
    var manifestSHA256: String
    /// ``OutputManifest/galleriesDigest(_:)`` of the manifest's galleries.
    var galleriesDigest: String
    var files: [OutputManifest.File]

    /// The copy as its file holds it; nil when a path or URL cannot be written on a line of its own (such a
    /// manifest has no copy, and is decoded).
    func encoded() -> [UInt8]? {
        func isLine(_ text: String) -> Bool { !text.isEmpty && !text.utf8.contains(0x0A) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128 + 200 * files.count)
        func append(_ text: String) { bytes.append(contentsOf: text.utf8) }
        append("\(Self.header)\nmanifest \(manifestSHA256) \(galleriesDigest)\n")
        for file in files {
            guard isLine(file.path), Self.isToken(file.sha256), file.inputs.map(Self.isToken) ?? true,
                file.urls?.allSatisfy(isLine) ?? true
            else { return nil }
            append("file ")
            append(file.sha256)
            bytes.append(0x20)
            if let size = file.size { ASCIIDecimal.append(Int64(size), to: &bytes) } else { bytes.append(0x2D) }
            bytes.append(0x20)
            append(file.inputs ?? "-")
            bytes.append(0x20)
            if let urls = file.urls { ASCIIDecimal.append(Int64(urls.count), to: &bytes) } else { bytes.append(0x2D) }
            bytes.append(0x20)
            append(file.path)
            bytes.append(0x0A)
            for url in file.urls ?? [] {
                append(url)
                bytes.append(0x0A)
            }
        }
        append("check \(SHA256Hasher.hex(of: bytes))\n")
        return bytes
    }

    /// Reads the copy at `path`; nil when there is none or it cannot be read as a whole (it is then ignored).
    static func read(atPath path: String) -> ManifestCopy? {
        (try? FileBytes.read(atPath: path, limit: FileBytes.recordLimit)).flatMap(ManifestCopy.init(bytes:))
    }

    init(manifestSHA256: String, galleriesDigest: String, files: [OutputManifest.File]) {
        self.manifestSHA256 = manifestSHA256
        self.galleriesDigest = galleriesDigest
        self.files = files
    }

    init?(bytes: [UInt8]) {
        let checkLength = "check \(String(repeating: "0", count: 64))\n".utf8.count
        guard bytes.count > checkLength, bytes.last == 0x0A else { return nil }
        let body = bytes.dropLast(checkLength)
        guard body.last == 0x0A,
            bytes.suffix(checkLength).elementsEqual("check \(SHA256Hasher.hex(of: body))\n".utf8)
        else { return nil }
        var lines = body.dropLast().split(separator: 0x0A, omittingEmptySubsequences: false)[...]
        guard lines.count >= 2, lines.removeFirst().elementsEqual(Self.header.utf8) else { return nil }
        let head = lines.removeFirst().split(separator: 0x20, omittingEmptySubsequences: false)
        guard head.count == 3, head[0].elementsEqual("manifest".utf8), Self.isToken(head[1]), Self.isToken(head[2])
        else { return nil }
        manifestSHA256 = String(decoding: head[1], as: UTF8.self)
        galleriesDigest = String(decoding: head[2], as: UTF8.self)
        files = []
        files.reserveCapacity(lines.count)
        while let line = lines.popFirst() {
            let fields = line.split(separator: 0x20, maxSplits: 5, omittingEmptySubsequences: false)
            guard fields.count == 6, fields[0].elementsEqual("file".utf8), Self.isToken(fields[1]),
                !fields[5].isEmpty, let size = Self.optional(fields[2], ASCIIDecimal.int64),
                let inputs = Self.optional(fields[3], { Self.isToken($0) ? String(decoding: $0, as: UTF8.self) : nil }),
                let urlCount = Self.optional(fields[4], ASCIIDecimal.int64), (urlCount ?? 0) <= lines.count
            else { return nil }
            var file = OutputManifest.File(
                path: String(decoding: fields[5], as: UTF8.self), sha256: String(decoding: fields[1], as: UTF8.self),
                size: size.map(Int.init), inputs: inputs)
            if let urlCount {
                let urls = lines.prefix(Int(urlCount))
                guard !urls.contains(where: \.isEmpty) else { return nil }
                file.urls = urls.map { String(decoding: $0, as: UTF8.self) }
                lines = lines.dropFirst(Int(urlCount))
            }
            files.append(file)
        }
    }

    /// A field that is `-` for none (the outer optional is nil when it is neither that nor what `parse` reads).
    private static func optional<Value>(_ field: ArraySlice<UInt8>, _ parse: (ArraySlice<UInt8>) -> Value?)
        -> Value??
    {
        if field.elementsEqual("-".utf8) { return .some(nil) }
        return parse(field).map { .some($0) }
    }

    /// A digest as the manifest records them: lowercase hexadecimal, never empty, never `-`.
    private static func isToken(_ bytes: ArraySlice<UInt8>) -> Bool { !bytes.isEmpty && LowercaseHex.isDigits(bytes) }

    private static func isToken(_ text: String) -> Bool { !text.isEmpty && LowercaseHex.isDigits(text) }
}
