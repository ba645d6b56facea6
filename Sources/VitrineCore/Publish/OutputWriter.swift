import Foundation

/// Writes a gallery into its output folder: every file atomically, files whose bytes did not change left alone,
/// only inside the folder, and only over or instead of files that its manifest says Vitrine wrote.
public final class OutputWriter {
    public let root: URL
    private let force: Bool
    private var previous: Set<String>
    private var written: [String: String] = [:]

    /// Checks that the folder is Vitrine's to write (empty, missing, holding a manifest, or `force`), and clears
    /// temporary files that an interrupted run left behind.
    public init(root: URL, force: Bool = false) throws(OutputOwnershipError) {
        self.root = root.standardizedFileURL
        self.force = force
        let manifest = OutputManifest.read(in: self.root)
        previous = Set(manifest?.files.map(\.path) ?? [])
        if manifest == nil && !force {
            let foreign = Self.foreignEntries(in: self.root)
            guard foreign.isEmpty else { throw OutputOwnershipError(folder: root.path, foreignFiles: foreign) }
        }
        TemporaryFileSweeper.sweep(self.root)
    }

    /// Declares every path this run will write, before writing any: an existing file there that Vitrine did not
    /// write stops the run (unless `force`), and the manifest lists the paths from now on, so that a run killed
    /// half-way leaves nothing the next run would not own.
    public func begin(planned paths: [String]) throws {
        var foreign: [String] = []
        for path in paths {
            let url = try destination(path)
            if !previous.contains(path) && FileManager.default.fileExists(atPath: url.path) { foreign.append(path) }
        }
        if !foreign.isEmpty && !force { throw OutputOwnershipError(folder: root.path, foreignFiles: foreign.sorted()) }
        let earlier = OutputManifest.read(in: root)?.files ?? []
        let known = Set(earlier.map(\.path))
        let intent = earlier + paths.filter { !known.contains($0) }.map { OutputManifest.File(path: $0, sha256: "") }
        try AtomicFile.write(
            OutputManifest(files: intent).encoded(), to: root.appendingPathComponent(OutputManifest.fileName))
        previous.formUnion(paths)
    }

    /// Top-level entries of a folder without a manifest that make it someone else's: anything but hidden files and
    /// a README.
    static func foreignEntries(in folder: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && !$0.uppercased().hasPrefix("README") }.sorted()
    }

    /// Writes `bytes` at `relativePath` unless the file already holds exactly them; returns whether it wrote.
    @discardableResult
    public func write(_ bytes: [UInt8], to relativePath: String) throws -> Bool {
        let url = try destination(relativePath)
        written[relativePath] = SHA256.hex(of: bytes)
        if let existing = FileManager.default.contents(atPath: url.path) {
            if existing.elementsEqual(bytes) { return false }
            try claim(relativePath)
        }
        try AtomicFile.write(bytes, to: url)
        return true
    }

    /// Places an image from the cache at `relativePath`, named by content, so an existing file of the same size
    /// already holds it; returns whether it wrote.
    @discardableResult
    public func placeImage(from source: URL, sha256: String, byteCount: Int, at relativePath: String) throws -> Bool {
        let url = try destination(relativePath)
        written[relativePath] = sha256
        if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int {
            if size == byteCount && previous.contains(relativePath) { return false }
            try claim(relativePath)
        }
        try AtomicFile.place(copyOf: source, at: url)
        return true
    }

    /// Removes what the previous run wrote and this one did not, then records this run's files; returns the paths
    /// removed.
    @discardableResult
    public func finish() throws -> [String] {
        var removed: [String] = []
        for path in previous.subtracting(written.keys).sorted() {
            guard let url = try? destination(path) else { continue }
            if unlink(url.path) == 0 { removed.append(path) }
        }
        let manifest = OutputManifest(files: written.map { OutputManifest.File(path: $0.key, sha256: $0.value) })
        try AtomicFile.write(manifest.encoded(), to: root.appendingPathComponent(OutputManifest.fileName))
        return removed
    }

    /// An existing file may be replaced only if Vitrine wrote it, or with `force`.
    private func claim(_ relativePath: String) throws(OutputOwnershipError) {
        guard force || previous.contains(relativePath) else {
            throw OutputOwnershipError(folder: root.path, foreignFiles: [relativePath])
        }
    }

    private func destination(_ relativePath: String) throws(FileWriteError) -> URL {
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard !relativePath.hasPrefix("/"), !parts.isEmpty,
            parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }),
            relativePath != OutputManifest.fileName
        else { throw FileWriteError(path: relativePath, reason: "the path leaves the output folder") }
        return root.appendingPathComponent(relativePath)
    }
}

@available(*, unavailable)
extension OutputWriter: Sendable {}
