import Foundation

/// Writes a gallery into its output folder: every file atomically, files whose bytes did not change left alone,
/// and only to paths inside the folder.
public struct OutputWriter: Sendable {
    public let root: URL

    public init(root: URL) {
        self.root = root.standardizedFileURL
    }

    /// Writes `bytes` at `relativePath` unless the file already holds exactly them; returns whether it wrote.
    @discardableResult
    public func write(_ bytes: [UInt8], to relativePath: String) throws(FileWriteError) -> Bool {
        let url = try destination(relativePath)
        if let existing = FileManager.default.contents(atPath: url.path), existing.elementsEqual(bytes) { return false }
        try AtomicFile.write(bytes, to: url)
        return true
    }

    /// Places an image from the cache at `relativePath` (named by content, so an existing file of the same size
    /// already holds it); returns whether it wrote.
    @discardableResult
    public func placeImage(from source: URL, byteCount: Int, at relativePath: String) throws(FileWriteError) -> Bool {
        let url = try destination(relativePath)
        if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int, size == byteCount {
            return false
        }
        try AtomicFile.place(copyOf: source, at: url)
        return true
    }

    private func destination(_ relativePath: String) throws(FileWriteError) -> URL {
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard !relativePath.hasPrefix("/"), !parts.isEmpty,
            parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." })
        else { throw FileWriteError(path: relativePath, reason: "the path leaves the output folder") }
        return root.appendingPathComponent(relativePath)
    }
}
