import Foundation

/// The regular files below one folder, read-only: folders answer with their index.html, and paths with `..`,
/// hidden components or anything outside the folder (through a link too) are not found.
struct StaticFolderFiles: Sendable {
    let root: URL

    static let contentTypes = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "xml": "application/xml", "json": "application/json", "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "png": "image/png", "gif": "image/gif", "webp": "image/webp", "avif": "image/avif", "svg": "image/svg+xml",
    ]

    /// The file a request path names, or nil when there is none to serve.
    func resolve(_ path: String) -> URL? {
        let decoded = path.removingPercentEncoding ?? path
        let parts = decoded.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.allSatisfy({ !$0.hasPrefix(".") && !$0.contains("\0") }) else { return nil }
        var url = parts.reduce(root) { $0.appendingPathComponent(String($1)) }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { return nil }
        if isFolder.boolValue { url.appendPathComponent("index.html") }
        let real = url.resolvingSymlinksInPath().path
        let base = root.resolvingSymlinksInPath().path
        guard real.hasPrefix(base + "/") else { return nil }
        return url
    }

    func contentType(of file: URL) -> String {
        Self.contentTypes[file.pathExtension.lowercased()] ?? "application/octet-stream"
    }
}
