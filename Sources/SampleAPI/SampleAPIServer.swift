import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// One request the sample API received, for tests that count or inspect traffic.
package struct SampleAPIRequest: Sendable, Equatable {
    /// The HTTP method, uppercased (`"GET"`).
    package let method: String
    /// The percent-decoded path, without the query (`"/api/"`).
    package let path: String
    /// The decoded query parameters (`+` read as a space); of repeated names the last one wins.
    package let query: [String: String]
    /// The request's header fields, names lowercased.
    package let headers: [String: String]

    package init(method: String, path: String, query: [String: String], headers: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
    }
}

/// Why the sample API could not start.
package enum SampleAPIServerError: Error, Sendable, Equatable {
    /// `start` was called while the server was starting or running.
    case alreadyRunning
    /// The listening socket was not ready within two minutes.
    case startTimedOut
    /// Another socket is bound to the port asked for.
    case portInUse(UInt16)
}

/// Image APIs on 127.0.0.1 serving bundled sample images: Pixabay's search, Flickr's REST photo lists and public
/// feed, and a media-coverage thumbnail list, each in its provider's documented shape.
package final class SampleAPIServer: Sendable {
    /// The API key the sample API accepts unless configured otherwise.
    package static let demoKey = "sample-key"

    private struct Lifecycle {
        var isStarting = false
        var server: HTTPServer?
        var runTask: Task<Void, any Error>?
        var runFailed = false
        var port: UInt16 = 0
    }

    /// How long a handler may take before FlyingFox answers 500; `delay` faults extend it. Only a guard against a
    /// handler that never returns: FlyingFox's 15 s were too few for images served beside a test suite that loads
    /// both cores.
    private static let handlerTimeout: TimeInterval = 300
    /// How long `start` waits for the socket to listen before it gives up.
    private static let startLimit: TimeInterval = 120

    private let service: SampleAPIService
    private let lifecycle = Mutex(Lifecycle())

    package init(configuration: SampleAPIConfiguration = .init()) {
        service = SampleAPIService(
            router: SampleAPIRouter(configuration: configuration),
            faults: FaultInjector(rules: configuration.faults)
        )
    }

    deinit {
        lifecycle.withLock { $0.runTask?.cancel() }
    }

    /// Binds 127.0.0.1:`port` (0 picks a free port) and returns once the server accepts connections.
    package func start(port: UInt16 = 0) async throws {
        try lifecycle.withLock { state in
            guard !state.isStarting, state.server == nil else { throw SampleAPIServerError.alreadyRunning }
            state.isStarting = true
        }
        do {
            try await launch(port: port)
        } catch {
            lifecycle.withLock { $0.isStarting = false }
            if case .failed(_, let code, _) = error as? SocketError, code == EADDRINUSE {
                throw SampleAPIServerError.portInUse(port)
            }
            throw error
        }
    }

    private func launch(port: UInt16) async throws {
        let server = HTTPServer(
            address: try sockaddr_in.inet(ip4: "127.0.0.1", port: port),
            timeout: Self.handlerTimeout + service.faults.longestDelaySeconds,
            logger: .disabled,
            handler: SampleAPIHTTPHandler(service: service)
        )
        // Cleared before the task starts: a bind that fails at once must not have its mark cleared after it.
        lifecycle.withLock { $0.runFailed = false }
        // FlyingFox resumes the wait once the socket listens, and a run that fails (a port in use) ends it at once.
        // The limit only keeps a start that never comes from hanging: beside a busy suite, 10 s were once too few.
        let listening = Task { try await server.waitUntilListening(timeout: Self.startLimit) }
        let runTask = Task { [weak self] in
            do {
                try await server.run()
            } catch {
                self?.markRunFailed()
                listening.cancel()
                throw error
            }
        }
        lifecycle.withLock { $0.runTask = runTask }
        do {
            try await listening.value
        } catch {
            if lifecycle.withLock({ $0.runFailed }) {
                try await runTask.value
            }
            await server.stop()
            runTask.cancel()
            throw SampleAPIServerError.startTimedOut
        }
        var boundPort = port
        if case .ip4(_, let listeningPort) = await server.listeningAddress {
            boundPort = listeningPort
        }
        service.setPort(boundPort)
        ConnectionSocket.listening(localPort: boundPort)?.disableNagle()
        lifecycle.withLock { state in
            state.server = server
            state.port = boundPort
            state.isStarting = false
        }
    }

    private func markRunFailed() {
        lifecycle.withLock { $0.runFailed = true }
    }

    /// The bound port (0 before the first `start`).
    package var port: UInt16 {
        get async { lifecycle.withLock { $0.port } }
    }

    /// `http://127.0.0.1:{port}`.
    package var baseURL: String {
        get async { "http://127.0.0.1:\(await port)" }
    }

    /// The search endpoint to use in place of `https://pixabay.com/api/`.
    package var pixabayEndpoint: String {
        get async { "\(await baseURL)/api/" }
    }

    /// The base under which Flickr's `rest/` and `feeds/photos_public.gne` live, in place of
    /// `https://www.flickr.com/services/`.
    package var flickrEndpoint: String {
        get async { "\(await baseURL)/services/" }
    }

    /// The list to use in place of `https://acharyaprashant.org/api/v2/content/misc/media-coverages`.
    package var thumbnailsEndpoint: String {
        get async { "\(await baseURL)/api/v2/content/misc/media-coverages" }
    }

    /// The base to use in place of `https://picsum.photos/`.
    package var picsumEndpoint: String {
        get async { "\(await baseURL)/" }
    }

    /// The base to use in place of `https://api.unsplash.com/`.
    package var unsplashEndpoint: String {
        get async { "\(await baseURL)/unsplash/" }
    }

    /// The base to use in place of `https://jsonplaceholder.typicode.com` (`/users`, `/albums`, `/photos` below it).
    package var jsonPlaceholderEndpoint: String {
        get async { await baseURL }
    }

    /// Closes the listening socket and open connections, and waits until the server has shut down.
    package func stop() async {
        let (server, runTask) = lifecycle.withLock { state in
            defer {
                state.server = nil
                state.runTask = nil
            }
            return (state.server, state.runTask)
        }
        await server?.stop()
        _ = await runTask?.result
    }

    /// Every request received so far, in arrival order.
    package func requests() -> [SampleAPIRequest] {
        service.requests()
    }

    /// Waits until `count` requests that satisfy `matching` have been received and returns every request so far, or
    /// nil if they have not come within `limit` or the task was cancelled: a handshake for tests that wait on the
    /// client's progress, the limit only a guard against waiting forever.
    package func requests(
        atLeast count: Int = 1, within limit: Duration = .seconds(120),
        matching: @escaping @Sendable (SampleAPIRequest) -> Bool
    ) async -> [SampleAPIRequest]? {
        await service.requests(atLeast: count, within: limit, matching: matching)
    }

    /// Forgets the requests received so far.
    package func resetRequests() {
        service.resetRequests()
    }

    /// How many requests each rule of `configuration.faults` has claimed so far, in rule order.
    package func injectedFaultCounts() -> [Int] {
        service.faults.claimCounts()
    }
}

/// The server's state shared with the connection handlers: the router, the faults, the port and the request log.
final class SampleAPIService: Sendable {
    let faults: FaultInjector
    private let router: SampleAPIRouter
    private let boundPort = Mutex<UInt16>(0)
    private let log = Mutex(RequestLog())

    /// The requests received, and the tests waiting for some to come.
    private struct RequestLog {
        struct Waiter {
            var count: Int
            var matching: @Sendable (SampleAPIRequest) -> Bool
            var continuation: CheckedContinuation<[SampleAPIRequest]?, Never>
        }

        var requests: [SampleAPIRequest] = []
        var waiters: [UUID: Waiter] = [:]
        /// Waits given up (their limit passed, or their task was cancelled) before they were registered.
        var expired: Set<UUID> = []

        func satisfies(_ waiter: Waiter) -> Bool { requests.lazy.filter(waiter.matching).count >= waiter.count }
    }

    init(router: SampleAPIRouter, faults: FaultInjector) {
        self.router = router
        self.faults = faults
    }

    func setPort(_ port: UInt16) {
        boundPort.withLock { $0 = port }
    }

    var port: UInt16 {
        boundPort.withLock { $0 }
    }

    func respond(to request: SampleAPIRequest) async -> SampleAPIResponse {
        let (answered, requests) = log.withLock { log in
            log.requests.append(request)
            let answered = log.waiters.filter { log.satisfies($0.value) }
            for id in answered.keys { log.waiters[id] = nil }
            return (answered.values.map(\.continuation), log.requests)
        }
        for waiter in answered { waiter.resume(returning: requests) }
        let baseURL = "http://127.0.0.1:\(port)"
        let normal = { [router] in router.respond(to: request, baseURL: baseURL, now: router.configuration.now()) }
        guard let fault = faults.claim(for: request) else {
            return normal()
        }
        return await FaultResponses.respond(
            with: fault,
            configuration: router.configuration,
            baseURL: baseURL,
            normal: normal
        )
    }

    func requests() -> [SampleAPIRequest] {
        log.withLock { $0.requests }
    }

    func requests(
        atLeast count: Int, within limit: Duration, matching: @escaping @Sendable (SampleAPIRequest) -> Bool
    ) async -> [SampleAPIRequest]? {
        let id = UUID()
        let timer = Task { [self] in
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            giveUp(id)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let waiter = RequestLog.Waiter(count: count, matching: matching, continuation: continuation)
                let answer: [SampleAPIRequest]?? = log.withLock { log in
                    if log.satisfies(waiter) { return .some(log.requests) }
                    if log.expired.remove(id) != nil { return .some(nil) }
                    log.waiters[id] = waiter
                    return .none
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            giveUp(id)
        }
    }

    /// Ends the wait `id` with nil, or marks it so that it ends at once if it has not begun.
    private func giveUp(_ id: UUID) {
        let waiter = log.withLock { log in
            guard let waiter = log.waiters.removeValue(forKey: id) else {
                log.expired.insert(id)
                return nil as RequestLog.Waiter?
            }
            return waiter
        }
        waiter?.continuation.resume(returning: nil)
    }

    func resetRequests() {
        log.withLock { $0.requests.removeAll() }
    }
}

/// Adapts FlyingFox requests and responses to the sample API's own request and response values.
struct SampleAPIHTTPHandler: HTTPHandler {
    let service: SampleAPIService

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let sampleRequest = SampleAPIRequest(
            method: request.method.rawValue.uppercased(),
            path: request.target.path(percentEncoded: false),
            query: Self.decodeQuery(request.target.query(percentEncoded: true)),
            headers: Dictionary(request.headers.map { ($0.key.rawValue.lowercased(), $0.value) }) { _, last in last }
        )
        let response = await service.respond(to: sampleRequest)
        var headers = HTTPHeaders()
        for (name, value) in response.headers {
            headers[HTTPHeader(name)] = value
        }
        let body: HTTPBodySequence
        if sampleRequest.method == "HEAD" {
            headers[.contentLength] = String(response.contentLength)
            body = HTTPBodySequence(data: Data())
        } else if response.delivery == .whole {
            body = HTTPBodySequence(data: response.body, suggestedBufferSize: 65_536)
        } else if case .trickled = response.delivery {
            body = HTTPBodySequence(from: FaultyBodySequence(response, socket: nil))
        } else {
            var socket: Socket?
            if case .cutOff(_, reset: true) = response.delivery {
                socket = ConnectionSocket.find(localPort: service.port, peer: request.remoteAddress)
            }
            body = HTTPBodySequence(
                from: FaultyBodySequence(response, socket: socket),
                count: response.contentLength,
                suggestedBufferSize: 65_536
            )
        }
        return HTTPResponse(statusCode: Self.statusCode(response.status), headers: headers, body: body)
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

    private static func statusCode(_ code: Int) -> HTTPStatusCode {
        HTTPStatusCode(code, phrase: HTTPReasonPhrase.phrase(for: code))
    }
}

/// Reason phrases for the status lines the sample API writes.
enum HTTPReasonPhrase {
    private static let phrases: [Int: String] = [
        200: "OK", 201: "Created", 204: "No Content", 206: "Partial Content", 301: "Moved Permanently",
        302: "Found", 303: "See Other", 304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        408: "Request Timeout", 410: "Gone", 413: "Content Too Large", 414: "URI Too Long", 418: "I'm a teapot",
        429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout",
    ]

    static func phrase(for code: Int) -> String {
        phrases[code] ?? "Status \(code)"
    }
}
