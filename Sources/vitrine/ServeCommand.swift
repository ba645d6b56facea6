import ArgumentParser
import Dispatch
import FlyingFox
import FlyingSocks
import Foundation

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a gallery folder on 127.0.0.1 for a local look, until interrupted.",
        discussion: "Only files inside DIR are served (no hidden files, no '..'); a folder serves its index.html."
    )

    @Argument(help: "The folder to serve.")
    var directory = "Output"

    @Option(name: .long, help: ArgumentHelp("The port; 0 picks a free one.", valueName: "n"))
    var port: UInt16 = 8080

    func run() async throws {
        let root = URL(fileURLWithPath: directory).standardizedFileURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("\(directory) is not a folder.")
        }
        let server = HTTPServer(
            address: try sockaddr_in.inet(ip4: "127.0.0.1", port: port), logger: .disabled,
            handler: StaticFolderHandler(root: root))
        let running = Task { try await server.run() }
        try await server.waitUntilListening()
        var boundPort = port
        if case .ip4(_, let listening) = await server.listeningAddress { boundPort = listening }
        let banner = "Serving \(directory) at http://127.0.0.1:\(boundPort)/ ; Ctrl-C stops it.\n"
        FileHandle.standardOutput.write(Data(banner.utf8))
        let stops = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { running.cancel() }
            source.resume()
            return source
        }
        defer { stops.forEach { $0.cancel() } }
        _ = await running.result
        await server.stop(timeout: 1)
    }
}

/// Serves the regular files below one folder, read-only: folders answer with their index.html, and paths with
/// `..`, hidden components or anything outside the folder are not found.
struct StaticFolderHandler: HTTPHandler {
    let root: URL

    static let contentTypes = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "xml": "application/xml", "json": "application/json", "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "png": "image/png", "gif": "image/gif", "webp": "image/webp", "svg": "image/svg+xml",
    ]

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.method == .GET || request.method == .HEAD else {
            return HTTPResponse(statusCode: .methodNotAllowed)
        }
        guard let file = resolve(request.path) else { return HTTPResponse(statusCode: .notFound) }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            return HTTPResponse(statusCode: .notFound)
        }
        let type = Self.contentTypes[file.pathExtension.lowercased()] ?? "application/octet-stream"
        return HTTPResponse(statusCode: .ok, headers: [.contentType: type], body: data)
    }

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
}
