import Foundation
import NIOCore
import NIOHTTP1
import VitrineBasics

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
    /// A request head could not be parsed and was answered; the connection is closing, and nothing more is answered.
    private var refused = false

    init(files: StaticFolderFiles) {
        self.files = files
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        switch unwrapInboundIn(data) {
        case .head(let request): head = request
        case .body: break
        case .end:
            guard let request = head else { return }
            head = nil
            respond(to: request, context: context)
        }
    }

    /// Answers a head the parser refused, once, and closes the connection. Any other error (a reset, bytes after
    /// the refusal) only closes it: NIO's pipeline handler admits a response only after a request or a parser error,
    /// and a response written in any other state stops the process.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        head = nil
        guard let parserError = error as? HTTPParserError, !refused else {
            context.close(promise: nil)
            return
        }
        refused = true
        let status: HTTPResponseStatus = parserError == .headerOverflow ? .requestHeaderFieldsTooLarge : .badRequest
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
        guard let file = files.resolve(path), let bytes = try? FileBytes.read(atPath: file.path, limit: .max - 1) else {
            return send(.notFound, body: nil, keepAlive: keepAlive, version: request.version, context: context)
        }
        send(
            .ok, body: (Data(bytes), files.contentType(of: file)), withoutBody: request.method == .HEAD,
            keepAlive: keepAlive,
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
