import Foundation
import NIOCore
import NIOHTTP1

/// One connection of the sample API: reads each request (NIO's HTTP/1 parser, one request at a time however many
/// the client pipelines), has the service answer it on the connection's event loop (a delay fault's response after
/// its pause, on a task that a stop cancels), and writes it back on the loop the way its delivery says: whole,
/// padded, cut off, stalled or trickled.
final class SampleAPIChannelHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// How long a reset waits after the last bytes, so that the client has read them before the RST arrives.
    static let pauseBeforeReset = TimeAmount.milliseconds(100)
    /// How often a trickled body sends its next piece.
    static let tricklePeriod = TimeAmount.milliseconds(100)
    /// The largest piece of zero padding written at once.
    static let paddingPiece = 65_536

    private let service: SampleAPIService
    private var head: HTTPRequestHead?

    init(service: SampleAPIService) {
        self.service = service
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head else { return }
            self.head = nil
            switch service.answer(to: Self.sampleRequest(head)) {
            case .now(let response):
                send(response, to: head, context: context)
            case .later(let respond):
                let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                let loop = context.eventLoop
                let started = service.delayedAnswers.run {
                    let response = await respond()
                    // Cancelled by a stop: the connection closes with the server, unanswered.
                    guard !Task.isCancelled else { return }
                    loop.execute {
                        let (handler, context) = bound.value
                        handler.send(response, to: head, context: context)
                    }
                }
                if !started { context.close(promise: nil) }
            }
        }
    }

    /// A connection that fails (the client reset it, say) is closed; the server goes on.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// The request as the router reads it: the method uppercased, the path percent-decoded without the query, the
    /// query decoded, the header names lowercased (of repeated ones the last wins).
    static func sampleRequest(_ head: HTTPRequestHead) -> SampleAPIRequest {
        let target = head.uri.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let rawPath = parts.first.map(String.init) ?? ""
        return SampleAPIRequest(
            method: head.method.rawValue.uppercased(),
            path: rawPath.removingPercentEncoding ?? rawPath,
            query: decodeQuery(parts.count > 1 ? String(parts[1]) : ""),
            headers: Dictionary(head.headers.map { ($0.name.lowercased(), $0.value) }) { _, last in last }
        )
    }

    /// Decodes `a=1&q=red+flower` the way HTML forms and Pixabay clients encode it.
    static func decodeQuery(_ rawQuery: String) -> [String: String] {
        var query: [String: String] = [:]
        for pair in rawQuery.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decodeComponent(parts[0])
            guard !name.isEmpty else { continue }
            query[name] = parts.count > 1 ? decodeComponent(parts[1]) : ""
        }
        return query
    }

    private static func decodeComponent(_ component: Substring) -> String {
        let spaced = component.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    // MARK: - Writing a response

    private func send(_ response: SampleAPIResponse, to request: HTTPRequestHead, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        let withoutBody = request.method == .HEAD
        // A fault that ends the body early ends the connection too; one that never ends keeps it.
        let keepAlive = request.isKeepAlive && Self.endsCleanly(response.delivery)
        var headers = HTTPHeaders()
        for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) { headers.add(name: name, value: value) }
        if case .trickled = response.delivery, !withoutBody {
            headers.replaceOrAdd(name: "Transfer-Encoding", value: "chunked")
        } else {
            headers.replaceOrAdd(name: "Content-Length", value: String(response.contentLength))
        }
        if !keepAlive {
            headers.replaceOrAdd(name: "Connection", value: "close")
        } else if request.version.major == 1 && request.version.minor == 0 {
            headers.replaceOrAdd(name: "Connection", value: "keep-alive")
        }
        let status = HTTPResponseStatus(
            statusCode: response.status, reasonPhrase: HTTPReasonPhrase.phrase(for: response.status))
        let headWritten = context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))))
        if withoutBody {
            return finish(context, keepAlive: keepAlive)
        }
        switch response.delivery {
        case .whole:
            writeBody(response.body, context)
            finish(context, keepAlive: keepAlive)
        case .zeroPadded(let count):
            writeBody(response.body, context)
            var left = max(count, 0)
            while left > 0 {
                let piece = min(left, Self.paddingPiece)
                writeBody(Data(count: piece), context)
                left -= piece
            }
            finish(context, keepAlive: keepAlive)
        case .cutOff(let sentBytes, let reset):
            // Closed once the bytes have gone to the socket, since a close fails the writes still pending; writes
            // complete in order, so the last one's future is the whole response's.
            let channel = context.channel
            let written = writeBody(response.body.prefix(sentBytes), context) ?? headWritten
            context.flush()
            written.whenComplete { _ in
                guard reset else { return channel.close(promise: nil) }
                channel.eventLoop.scheduleTask(in: Self.pauseBeforeReset) {
                    // SO_LINGER with a zero timeout: closing sends a TCP reset instead of a FIN.
                    let linger =
                        (channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0))
                        ?? channel.eventLoop.makeSucceededVoidFuture()
                    linger.whenComplete { _ in channel.close(promise: nil) }
                }
            }
        case .stalled(let sentBytes, let duration):
            let channel = context.channel
            let written = writeBody(response.body.prefix(sentBytes), context) ?? headWritten
            context.flush()
            written.whenComplete { _ in
                channel.eventLoop.scheduleTask(in: TimeAmount(duration)) {
                    channel.close(promise: nil)
                }
            }
        case .trickled(let bytesPerSecond):
            context.flush()
            trickle(response.body, bytesPerSecond: bytesPerSecond, context: context)
        }
    }

    private static func endsCleanly(_ delivery: SampleAPIResponse.Delivery) -> Bool {
        switch delivery {
        case .whole, .zeroPadded: true
        case .cutOff, .stalled, .trickled: false
        }
    }

    /// Writes `bytes` of the body; the future completes once they are on the socket, which takes a flush. Nil, and
    /// nothing written, when `bytes` is empty.
    @discardableResult
    private func writeBody(_ bytes: Data, _ context: ChannelHandlerContext) -> EventLoopFuture<Void>? {
        guard !bytes.isEmpty else { return nil }
        return context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: bytes)))))
    }

    private func finish(_ context: ChannelHandlerContext, keepAlive: Bool) {
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            if !keepAlive { channel.close(promise: nil) }
        }
    }

    /// Sends the body a little every tenth of a second at `bytesPerSecond`, then zeros without end, until the client
    /// goes (or the server stops).
    private func trickle(_ body: Data, bytesPerSecond: Int, context: ChannelHandlerContext) {
        let piece = max(1, bytesPerSecond / 10)
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        // How much of `body` has gone; touched on the event loop only.
        let sent = NIOLoopBoundBox(0, eventLoop: context.eventLoop)
        context.eventLoop.scheduleRepeatedTask(initialDelay: Self.tricklePeriod, delay: Self.tricklePeriod) { task in
            let (handler, context) = bound.value
            guard context.channel.isActive else { return task.cancel() }
            let bytes: Data
            if sent.value < body.count {
                let start = body.startIndex + sent.value
                let end = min(start + piece, body.endIndex)
                bytes = body.subdata(in: start..<end)
                sent.value += end - start
            } else {
                bytes = Data(count: piece)
            }
            handler.writeBody(bytes, context)
            context.flush()
        }
    }
}
