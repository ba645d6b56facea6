import ArgumentParser
import Dispatch
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a gallery folder on 127.0.0.1 for a local look, until interrupted.",
        discussion: """
            Only files inside DIR are served (no hidden files, no '..'); a folder serves its index.html. A request \
            line over 8 KiB is answered 414 and headers over 16 KiB or 100 lines 431, so no request can pin the \
            server; Ctrl-C or SIGTERM stops it within a second, whatever is in flight.
            """
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
        let files = StaticFolderFiles(root: root)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let server = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: false)
                    try channel.pipeline.syncOperations.addHandler(StaticFolderHTTPHandler(files: files))
                }
            }
            .bind(host: "127.0.0.1", port: Int(port)).get()
        let boundPort = server.localAddress?.port ?? Int(port)
        let banner = "Serving \(directory) at http://127.0.0.1:\(boundPort)/ ; Ctrl-C stops it.\n"
        StandardStreams.output(Array(banner.utf8))
        // Nothing is written while serving, so a signal ends the process at once: no request in flight can hold
        // it up.
        let stops = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                server.close(promise: nil)
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { Foundation.exit(0) }
            }
            source.resume()
            return source
        }
        defer { stops.forEach { $0.cancel() } }
        try await server.closeFuture.get()
        try? await group.shutdownGracefully()
    }
}

/// The regular files below one folder, read-only: folders answer with their index.html, and paths with `..`,
/// hidden components or anything outside the folder (through a link too) are not found.
struct StaticFolderFiles: Sendable {
    let root: URL

    static let contentTypes = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "xml": "application/xml", "json": "application/json", "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "png": "image/png", "gif": "image/gif", "webp": "image/webp", "svg": "image/svg+xml",
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

/// Answers each request of one connection from a ``StaticFolderFiles``. The request head is parsed by NIO's
/// HTTP/1 decoder (llhttp), in linear time and at most 80 KiB; this handler then holds it to the limits of common
/// servers (nginx answers 414 and 431 alike) and answers a head the decoder refused with 431 or 400.
final class StaticFolderHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// The longest request line answered normally.
    static let longestRequestLine = 8 << 10
    /// The most header bytes (names and values) and lines answered normally.
    static let largestHeaders = 16 << 10
    static let mostHeaderLines = 100

    private let files: StaticFolderFiles
    private var head: HTTPRequestHead?

    init(files: StaticFolderFiles) {
        self.files = files
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request): head = request
        case .body: break
        case .end:
            guard let request = head else { return }
            head = nil
            respond(to: request, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let status: HTTPResponseStatus =
            (error as? HTTPParserError) == .headerOverflow ? .requestHeaderFieldsTooLarge : .badRequest
        send(status, body: nil, keepAlive: false, version: .http1_1, context: context)
    }

    private func respond(to request: HTTPRequestHead, context: ChannelHandlerContext) {
        let keepAlive = request.isKeepAlive
        let headerBytes = request.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        if request.method.rawValue.utf8.count + request.uri.utf8.count + 10 > Self.longestRequestLine {
            return send(.uriTooLong, body: nil, keepAlive: false, version: request.version, context: context)
        }
        if headerBytes > Self.largestHeaders || request.headers.count > Self.mostHeaderLines {
            return send(
                .requestHeaderFieldsTooLarge, body: nil, keepAlive: false, version: request.version, context: context)
        }
        guard request.method == .GET || request.method == .HEAD else {
            return send(.methodNotAllowed, body: nil, keepAlive: keepAlive, version: request.version, context: context)
        }
        let path = String(request.uri.prefix { $0 != "?" && $0 != "#" })
        guard let file = files.resolve(path), let data = FileManager.default.contents(atPath: file.path) else {
            return send(.notFound, body: nil, keepAlive: keepAlive, version: request.version, context: context)
        }
        send(
            .ok, body: (data, files.contentType(of: file)), withoutBody: request.method == .HEAD, keepAlive: keepAlive,
            version: request.version, context: context)
    }

    /// Sends a response; `withoutBody` (HEAD) keeps its `Content-Length` and sends no byte of the body.
    private func send(
        _ status: HTTPResponseStatus, body: (Data, String)?, withoutBody: Bool = false, keepAlive: Bool,
        version: HTTPVersion, context: ChannelHandlerContext
    ) {
        let bytes = body?.0 ?? Data("\(status.code) \(status.reasonPhrase)\n".utf8)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: body?.1 ?? "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: String(bytes.count))
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))), promise: nil)
        if !withoutBody {
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: bytes)))), promise: nil)
        }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive { done.whenComplete { [channel = context.channel] _ in channel.close(promise: nil) } }
    }
}

@available(*, unavailable)
extension StaticFolderHTTPHandler: Sendable {}
