import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
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
    /// Another socket is bound to the port asked for.
    case portInUse(UInt16)
}

/// Image APIs on 127.0.0.1 serving bundled sample images: Pixabay's search, Flickr's REST photo lists and public
/// feed, a media-coverage thumbnail list, Openverse's image search and Wikimedia Commons' file search, each in its
/// provider's documented shape. It is served by swift-nio (its HTTP/1 parser and encoder) on an event loop per core,
/// where each response is made; only a delay fault's pause runs on a task.
package final class SampleAPIServer: Sendable {
    /// The API key the sample API accepts unless configured otherwise.
    package static let demoKey = "sample-key"
    /// The bearer token the Openverse search accepts unless configured otherwise.
    package static let openverseDemoToken = "sample-openverse-token"

    private struct Lifecycle {
        var isStarting = false
        var channel: (any Channel)?
        var group: MultiThreadedEventLoopGroup?
        var port: UInt16 = 0
    }

    private let service: SampleAPIService
    private let lifecycle = Mutex(Lifecycle())

    package init(configuration: SampleAPIConfiguration = .init()) {
        service = SampleAPIService(
            router: SampleAPIRouter(configuration: configuration),
            faults: FaultInjector(rules: configuration.faults)
        )
    }

    deinit {
        lifecycle.withLock { state in
            state.channel?.close(promise: nil)
            state.group?.shutdownGracefully { _ in }
        }
    }

    /// Binds 127.0.0.1:`port` (0 picks a free port) and returns once the server accepts connections.
    package func start(port: UInt16 = 0) async throws {
        try lifecycle.withLock { state in
            guard !state.isStarting, state.channel == nil else { throw SampleAPIServerError.alreadyRunning }
            state.isStarting = true
        }
        // A loop per core: responses are made on the loops (`SampleAPIService.answer(to:)`), those of connections on
        // different loops at the same time.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let service = self.service
        let channel: any Channel
        do {
            channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 256)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                // The head and body of a response go in separate writes: with Nagle's algorithm on, the body would
                // wait for the client's delayed ACK of the head, about 40 ms on every request of a kept-alive
                // connection.
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                        try channel.pipeline.syncOperations.addHandler(SampleAPIChannelHandler(service: service))
                    }
                }
                .bind(host: "127.0.0.1", port: Int(port)).get()
        } catch {
            lifecycle.withLock { $0.isStarting = false }
            try? await group.shutdownGracefully()
            if let error = error as? IOError, error.errnoCode == EADDRINUSE {
                throw SampleAPIServerError.portInUse(port)
            }
            throw error
        }
        let boundPort = UInt16(channel.localAddress?.port ?? Int(port))
        service.setPort(boundPort)
        service.delayedAnswers.open()
        lifecycle.withLock { state in
            state.channel = channel
            state.group = group
            state.port = boundPort
            state.isStarting = false
        }
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

    /// The base to use in place of `https://api.openverse.org/`: a client appends `v1/images/`.
    package var openverseEndpoint: String {
        get async { "\(await baseURL)/" }
    }

    /// The base to use in place of `https://commons.wikimedia.org/w/`: a client appends `api.php`.
    package var commonsEndpoint: String {
        get async { "\(await baseURL)/w/" }
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

    /// Closes the listening socket and open connections, and waits until the server has shut down. A delayed answer
    /// still in its pause is never sent.
    package func stop() async {
        let (channel, group) = lifecycle.withLock { state in
            defer {
                state.channel = nil
                state.group = nil
            }
            return (state.channel, state.group)
        }
        try? await channel?.close()
        // Before the loops go: a delayed answer ends on its connection's loop, which must still be running.
        await service.delayedAnswers.close()
        // Shutting the event loop down closes every connection still open, a stalled or trickling one included.
        try? await group?.shutdownGracefully()
    }

    /// Every request received so far, in arrival order.
    package func requests() -> [SampleAPIRequest] {
        service.requests()
    }

    /// Waits until `count` requests that satisfy `matching` have been received and returns every request so far, or
    /// nil if they have not come within `limit` or the task was cancelled: a handshake for tests that wait on the
    /// client's progress, the limit only a guard against waiting forever.
    package func requests(
        atLeast count: Int = 1, within limit: Duration = .seconds(600),
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

/// The server's state shared with the connection handlers: the router, the faults, the port, the request log and the
/// delayed answers in their pause.
final class SampleAPIService: Sendable {
    let faults: FaultInjector
    let delayedAnswers = DelayedAnswers()
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

    /// What the server sends for a request: a response made at once, or one made after the pause of a delay fault.
    enum Answer: Sendable {
        case now(SampleAPIResponse)
        case later(@Sendable () async -> SampleAPIResponse)
    }

    /// Logs `request`, claims its fault if one applies, and answers it. Made on the connection's event loop, not on
    /// the cooperative pool: a test process's pool can be taken for a minute by the tests beside it, and a search
    /// answered there came too late for a client's stall limit. Only a delay needs a task, for its pause.
    func answer(to request: SampleAPIRequest) -> Answer {
        if request.path == Self.requestLogPath {
            return .now(.text(200, requests().map { "\($0.method) \($0.path)\n" }.joined()))
        }
        let (answered, requests) = log.withLock { log in
            log.requests.append(request)
            let answered = log.waiters.filter { log.satisfies($0.value) }
            for id in answered.keys { log.waiters[id] = nil }
            return (answered.values.map(\.continuation), log.requests)
        }
        for waiter in answered { waiter.resume(returning: requests) }
        let baseURL = "http://127.0.0.1:\(port)"
        let router = self.router
        let normal = { @Sendable in router.respond(to: request, baseURL: baseURL, now: router.configuration.now()) }
        guard let fault = faults.claim(for: request) else { return .now(normal()) }
        let respond = { @Sendable in
            FaultResponses.respond(with: fault, configuration: router.configuration, baseURL: baseURL, normal: normal)
        }
        guard let pause = FaultResponses.pause(for: fault) else { return .now(respond()) }
        return .later {
            await router.configuration.pause(pause)
            return respond()
        }
    }

    func requests() -> [SampleAPIRequest] {
        log.withLock { $0.requests }
    }

    /// Where a benchmark reads the request log, a line per request (`GET /get/…_640.jpg`), as a test calls
    /// ``requests()``; asking it is not logged.
    static let requestLogPath = "/_sample-api/requests"

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

/// The tasks of delayed answers still running, so that a stop can cancel them and wait for each to end while the event
/// loops they end on still run.
final class DelayedAnswers: Sendable {
    private struct State {
        var isClosed = false
        var tasks: [UUID: Task<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// Runs `answer` on a task of its own; false, and nothing run, once `close` has been called.
    func run(_ answer: @escaping @Sendable () async -> Void) -> Bool {
        let id = UUID()
        return state.withLock { state in
            guard !state.isClosed else { return false }
            // The task's last step takes the lock, so it cannot remove its entry before this adds it.
            state.tasks[id] = Task { [self] in
                await answer()
                self.state.withLock { _ = $0.tasks.removeValue(forKey: id) }
            }
            return true
        }
    }

    /// Refuses new answers, cancels those running and waits until each has ended.
    func close() async {
        let running = state.withLock { state in
            state.isClosed = true
            return Array(state.tasks.values)
        }
        for task in running { task.cancel() }
        for task in running { await task.value }
    }

    /// Accepts answers again, for a server started anew.
    func open() {
        state.withLock { $0.isClosed = false }
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
