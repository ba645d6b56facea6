import Foundation
import SampleAPI
import VitrineTestSupport

/// One HTTP exchange as ``SocketHTTPClient`` saw it on the wire.
struct HTTPExchange: Sendable {
    /// How an exchange ended when it did not end with a whole response.
    enum Failure: Equatable, Sendable {
        /// Nothing listens on the port.
        case connectionRefused
        /// The server reset the connection (a TCP RST).
        case connectionReset
        /// The exchange was not over when its time ran out.
        case timedOut
        /// The connection closed before a whole status line and header block had come.
        case closedBeforeResponse
        /// The connection closed `missing` bytes before the end its `Content-Length` announced.
        case truncated(missing: Int)
        /// The connection closed, or a chunk was malformed, before the last chunk of a chunked body.
        case unfinishedChunks
        /// The status line or a header line could not be read.
        case malformedHead
        /// More redirects than the client was allowed to follow.
        case tooManyRedirects
        /// A socket call failed with this `errno`.
        case socketError(Int32)
    }

    /// The status code, or 0 when no status line came.
    var status = 0
    /// The headers of the response by lowercased name; of a repeated header, the last.
    var headers: [String: String] = [:]
    /// The status line and headers as they came, up to and with the empty line that ends them.
    var head = ""
    /// The body as far as it came (nothing for a HEAD request), chunked encoding removed.
    var body = Data()
    /// Why the exchange ended before the whole response had come; nil when it had.
    var failure: Failure?
    /// Whether the request went over a connection that an earlier request had used.
    var reusedConnection = false

    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}

/// An HTTP/1.1 client over a plain POSIX socket, for tests that check what the sample API puts on the wire: a short
/// body, a reset or a stall is reported as such (``HTTPExchange/Failure``) with what did arrive. Each call runs on a
/// thread of its own, so that its blocking reads never hold up the tests beside it on the concurrency pool.
enum SocketHTTPClient {
    /// One request: `headers` go with `Host` and `Accept: */*`, and replace either of them.
    struct Request: Sendable {
        var method = "GET"
        var url: String
        var headers: [String: String] = [:]
    }

    /// A URL this client cannot send to.
    struct UnsupportedURL: Error, CustomStringConvertible {
        var url: String
        var description: String { "SocketHTTPClient takes http://IPv4-ADDRESS[:PORT]/… URLs, not \(url)" }
    }

    /// Sends `method` for `url` on a new connection and reads the response. With `followingRedirects`, a 3xx with a
    /// `Location` is followed, on a new connection, at most that many times; the whole exchange fails as timed out
    /// when it takes longer than `timeout` (a guard against a hang, long enough for a server slowed down by a busy
    /// machine; tests of stalls give their own). `bodyStarted` is signalled once the head and the first body bytes of a
    /// response have come.
    static func fetch(
        _ url: String, method: String = "GET", headers: [String: String] = [:], followingRedirects: Int? = nil,
        timeout: Duration = .seconds(300), bodyStarted: Handshake? = nil
    ) async throws -> HTTPExchange {
        var request = Request(method: method, url: url, headers: headers)
        var target = try Target(request.url)
        let deadline = ContinuousClock.now + timeout
        var redirects = 0
        while true {
            var exchange = try await exchanges([request], to: target, deadline: deadline, bodyStarted: bodyStarted)[0]
            guard let limit = followingRedirects, [301, 302, 303, 307, 308].contains(exchange.status),
                exchange.failure == nil, let location = exchange.header("Location")
            else { return exchange }
            guard redirects < limit else {
                exchange.failure = .tooManyRedirects
                return exchange
            }
            redirects += 1
            request.url = target.resolve(location)
            target = try Target(request.url)
        }
    }

    /// Fetches every URL of `urls` with at most `width` requests at a time; the exchanges in `urls` order.
    static func fetchAll(_ urls: [String], width: Int = 8) async throws -> [HTTPExchange] {
        try await withThrowingTaskGroup(of: (Int, HTTPExchange).self) { group in
            var exchanges = [HTTPExchange?](repeating: nil, count: urls.count)
            var next = 0
            func startNext() {
                guard next < urls.count else { return }
                let (index, url) = (next, urls[next])
                group.addTask { (index, try await fetch(url)) }
                next += 1
            }
            for _ in 0..<width {
                startNext()
            }
            while let (index, exchange) = try await group.next() {
                exchanges[index] = exchange
                startNext()
            }
            return exchanges.compactMap { $0 }
        }
    }

    /// Sends `requests`, all to one host and port, one after another on one connection, each when the response to
    /// the one before it has come; stops at the first that fails.
    static func exchangesOnOneConnection(_ requests: [Request], timeout: Duration = .seconds(300)) async throws
        -> [HTTPExchange]
    {
        let targets = try requests.map { try Target($0.url) }
        guard let first = targets.first else { return [] }
        guard targets.allSatisfy({ $0.host == first.host && $0.port == first.port }) else {
            throw UnsupportedURL(url: requests.map(\.url).joined(separator: " "))
        }
        return try await exchanges(requests, to: first, deadline: ContinuousClock.now + timeout)
    }

    private static func exchanges(
        _ requests: [Request], to target: Target, deadline: ContinuousClock.Instant, bodyStarted: Handshake? = nil
    ) async throws -> [HTTPExchange] {
        let address = try target.address()
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                let connection = SocketConnection(address: address)
                defer { connection.close() }
                var exchanges: [HTTPExchange] = []
                for request in requests {
                    let path = (try? Target(request.url).path) ?? "/"
                    var exchange = connection.exchange(
                        request, path: path, hostHeader: target.hostHeader, deadline: deadline,
                        bodyStarted: bodyStarted)
                    exchange.reusedConnection = !exchanges.isEmpty
                    exchanges.append(exchange)
                    if exchange.failure != nil || !connection.isReusable { break }
                }
                continuation.resume(returning: exchanges)
            }
            thread.start()
        }
    }

    /// Where a URL points: an IPv4 address, a port and the request target (path and query, as written).
    private struct Target {
        var host: String
        var port: UInt16
        var path: String

        var hostHeader: String { "\(host):\(port)" }

        init(_ url: String) throws {
            guard url.hasPrefix("http://") else { throw UnsupportedURL(url: url) }
            let rest = url.dropFirst("http://".count).prefix { $0 != "#" }
            let authority = rest.prefix { $0 != "/" && $0 != "?" }
            let path = rest.dropFirst(authority.count)
            self.path = path.hasPrefix("/") ? String(path) : "/" + path
            if let colon = authority.lastIndex(of: ":") {
                guard let port = UInt16(authority[authority.index(after: colon)...]) else {
                    throw UnsupportedURL(url: url)
                }
                (host, self.port) = (String(authority[..<colon]), port)
            } else {
                (host, port) = (String(authority), 80)
            }
            if host == "localhost" { host = "127.0.0.1" }
        }

        func address() throws -> sockaddr_in {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
                throw UnsupportedURL(url: "http://\(hostHeader)\(path)")
            }
            return address
        }

        /// `location` from a response to this target, as an absolute URL.
        func resolve(_ location: String) -> String {
            if location.hasPrefix("http://") || location.hasPrefix("https://") { return location }
            if location.hasPrefix("/") { return "http://\(hostHeader)\(location)" }
            let folder = path.prefix { $0 != "?" }.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            return "http://\(hostHeader)\(folder.joined(separator: "/"))/\(location)"
        }
    }
}

/// One TCP connection, read through a buffer, every wait bounded by a deadline.
private final class SocketConnection {
    /// Why reading stopped before it had what it wanted.
    enum End: Error, Equatable {
        case closed
        case failed(HTTPExchange.Failure)
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var connectFailure: HTTPExchange.Failure?
    /// Whether another request may follow on this connection.
    private(set) var isReusable = true

    init(address: sockaddr_in) {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else {
            connectFailure = .socketError(errno)
            return
        }
        var address = address
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if connected != 0 { connectFailure = errno == ECONNREFUSED ? .connectionRefused : .socketError(errno) }
    }

    func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    /// Sends `request` for `path` and reads its response.
    func exchange(
        _ request: SocketHTTPClient.Request, path: String, hostHeader: String, deadline: ContinuousClock.Instant,
        bodyStarted: Handshake? = nil
    ) -> HTTPExchange {
        var exchange = HTTPExchange()
        if let connectFailure {
            exchange.failure = connectFailure
            return exchange
        }
        var headers = ["Host": hostHeader, "Accept": "*/*"]
        for (name, value) in request.headers {
            headers = headers.filter { $0.key.lowercased() != name.lowercased() }
            headers[name] = value
        }
        let lines = ["\(request.method) \(path) HTTP/1.1"] + headers.sorted { $0.key < $1.key }.map { "\($0): \($1)" }
        if let failure = send(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)) {
            exchange.failure = failure
            return exchange
        }
        readResponse(to: request.method, into: &exchange, deadline: deadline, bodyStarted: bodyStarted)
        if exchange.failure != nil || exchange.header("Connection")?.lowercased() == "close" { isReusable = false }
        return exchange
    }

    private func readResponse(
        to method: String, into exchange: inout HTTPExchange, deadline: ContinuousClock.Instant, bodyStarted: Handshake?
    ) {
        let headEnd: Int
        switch fill(through: [13, 10, 13, 10], deadline: deadline) {
        case .success(let end): headEnd = end
        case .failure(.closed):
            exchange.failure = .closedBeforeResponse
            return
        case .failure(.failed(let failure)):
            exchange.failure = failure
            return
        }
        exchange.head = String(decoding: take(headEnd), as: UTF8.self)
        var lines = exchange.head.components(separatedBy: "\r\n").dropLast(2)
        let statusLine = lines.isEmpty ? [] : lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
            exchange.failure = .malformedHead
            return
        }
        exchange.status = status
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else {
                exchange.failure = .malformedHead
                return
            }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            exchange.headers[line[..<colon].lowercased()] = value
        }

        if method == "HEAD" || (100..<200).contains(status) || status == 204 || status == 304 { return }
        if exchange.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            readChunks(into: &exchange, deadline: deadline)
        } else if let length = exchange.header("Content-Length").flatMap({ Int($0) }) {
            var end = fill(count: min(length, 1), deadline: deadline)
            if end == nil {
                bodyStarted?.signal()
                end = fill(count: length, deadline: deadline)
            }
            exchange.body = Data(take(min(length, buffer.count)))
            switch end {
            case nil: break
            case .closed: exchange.failure = .truncated(missing: length - exchange.body.count)
            case .failed(let failure): exchange.failure = failure
            }
        } else {
            isReusable = false
            let end = fill(count: .max, deadline: deadline)
            exchange.body = Data(take(buffer.count))
            if case .failed(let failure) = end { exchange.failure = failure }
        }
    }

    private func readChunks(into exchange: inout HTTPExchange, deadline: ContinuousClock.Instant) {
        while true {
            guard case .success(let lineEnd) = fill(through: [13, 10], deadline: deadline),
                let size = Int(
                    String(decoding: take(lineEnd).dropLast(2), as: UTF8.self).prefix { $0 != ";" }
                        .trimmingCharacters(in: .whitespaces), radix: 16)
            else {
                exchange.failure = .unfinishedChunks
                return
            }
            if size == 0 {
                while case .success(let trailerEnd) = fill(through: [13, 10], deadline: deadline) {
                    if take(trailerEnd).count == 2 { return }
                }
                exchange.failure = .unfinishedChunks
                return
            }
            guard fill(count: size + 2, deadline: deadline) == nil else {
                exchange.body.append(contentsOf: take(min(size, buffer.count)))
                exchange.failure = .unfinishedChunks
                return
            }
            exchange.body.append(contentsOf: take(size + 2).dropLast(2))
        }
    }

    private func send(_ bytes: [UInt8]) -> HTTPExchange.Failure? {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                if errno == EINTR { continue }
                return errno == ECONNRESET || errno == EPIPE ? .connectionReset : .socketError(errno)
            }
            sent += count
        }
        return nil
    }

    /// Reads until the buffer holds `delimiter`; the count of bytes up to and with its first occurrence.
    private func fill(through delimiter: [UInt8], deadline: ContinuousClock.Instant) -> Result<Int, End> {
        var searched = 0
        while true {
            if buffer.count >= delimiter.count {
                for start in searched...(buffer.count - delimiter.count)
                where buffer[start..<start + delimiter.count].elementsEqual(delimiter) {
                    return .success(start + delimiter.count)
                }
                searched = buffer.count - delimiter.count + 1
            }
            if let end = receive(deadline: deadline) { return .failure(end) }
        }
    }

    /// Reads until the buffer holds `count` bytes; nil when it does, else how the connection ended first.
    private func fill(count: Int, deadline: ContinuousClock.Instant) -> End? {
        while buffer.count < count {
            if let end = receive(deadline: deadline) { return end }
        }
        return nil
    }

    private func take(_ count: Int) -> [UInt8] {
        defer { buffer.removeFirst(count) }
        return Array(buffer.prefix(count))
    }

    /// Waits for bytes until `deadline` and appends them; nil when some came.
    private func receive(deadline: ContinuousClock.Instant) -> End? {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return .failed(.timedOut) }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
            let ready = poll(&poller, 1, Int32(min(milliseconds, Int64(Int32.max))))
            if ready < 0 {
                if errno == EINTR { continue }
                return .failed(.socketError(errno))
            }
            if ready == 0 { continue }
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count > 0 {
                buffer += chunk[..<count]
                return nil
            }
            if count == 0 { return .closed }
            if errno == EINTR || errno == EAGAIN { continue }
            return .failed(errno == ECONNRESET ? .connectionReset : .socketError(errno))
        }
    }
}

/// Starts a server on a free port, runs `body` with it and stops it again.
func withServer<T>(
    _ configuration: SampleAPIConfiguration = .init(),
    _ body: (SampleAPIServer) async throws -> T
) async throws -> T {
    let server = SampleAPIServer(configuration: configuration)
    try await server.start()
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
