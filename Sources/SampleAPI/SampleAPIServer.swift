import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// One request the sample API received, for tests that count or inspect traffic.
public struct SampleAPIRequest: Sendable, Equatable {
    /// The HTTP method, uppercased (`"GET"`).
    public let method: String
    /// The percent-decoded path, without the query (`"/api/"`).
    public let path: String
    /// The decoded query parameters (`+` read as a space); of repeated names the last one wins.
    public let query: [String: String]

    public init(method: String, path: String, query: [String: String]) {
        self.method = method
        self.path = path
        self.query = query
    }
}

/// Why the sample API could not start.
public enum SampleAPIServerError: Error, Sendable, Equatable {
    /// `start` was called while the server was starting or running.
    case alreadyRunning
    /// The listening socket was not ready within the allowed time.
    case startTimedOut
}

/// A Pixabay-compatible image API on 127.0.0.1 serving bundled sample images.
public final class SampleAPIServer: Sendable {
    /// The API key the sample API accepts unless configured otherwise.
    public static let demoKey = "sample-key"

    private struct Lifecycle {
        var isStarting = false
        var server: HTTPServer?
        var runTask: Task<Void, any Error>?
        var runFailed = false
        var port: UInt16 = 0
    }

    private let service: SampleAPIService
    private let lifecycle = Mutex(Lifecycle())

    public init(configuration: SampleAPIConfiguration = .init()) {
        service = SampleAPIService(router: SampleAPIRouter(configuration: configuration))
    }

    deinit {
        lifecycle.withLock { $0.runTask?.cancel() }
    }

    /// Binds 127.0.0.1:`port` (0 picks a free port) and returns once the server accepts connections.
    public func start(port: UInt16 = 0) async throws {
        try lifecycle.withLock { state in
            guard !state.isStarting, state.server == nil else { throw SampleAPIServerError.alreadyRunning }
            state.isStarting = true
        }
        do {
            try await launch(port: port)
        } catch {
            lifecycle.withLock { $0.isStarting = false }
            throw error
        }
    }

    private func launch(port: UInt16) async throws {
        let server = HTTPServer(
            address: try sockaddr_in.inet(ip4: "127.0.0.1", port: port),
            logger: .disabled,
            handler: SampleAPIHTTPHandler(service: service)
        )
        let runTask = Task { [weak self] in
            do {
                try await server.run()
            } catch {
                self?.markRunFailed()
                throw error
            }
        }
        lifecycle.withLock { state in
            state.runFailed = false
            state.runTask = runTask
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while await !server.isListening {
            if lifecycle.withLock({ $0.runFailed }) {
                try await runTask.value
            }
            guard ContinuousClock.now < deadline else {
                await server.stop()
                runTask.cancel()
                throw SampleAPIServerError.startTimedOut
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        var boundPort = port
        if case .ip4(_, let listeningPort) = await server.listeningAddress {
            boundPort = listeningPort
        }
        service.setBaseURL("http://127.0.0.1:\(boundPort)")
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
    public var port: UInt16 {
        get async { lifecycle.withLock { $0.port } }
    }

    /// `http://127.0.0.1:{port}`.
    public var baseURL: String {
        get async { "http://127.0.0.1:\(await port)" }
    }

    /// The search endpoint to use in place of `https://pixabay.com/api/`.
    public var pixabayEndpoint: String {
        get async { "\(await baseURL)/api/" }
    }

    /// Closes the listening socket and open connections, and waits until the server has shut down.
    public func stop() async {
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
    public func requests() -> [SampleAPIRequest] {
        service.requests()
    }

    /// Forgets the requests received so far.
    public func resetRequests() {
        service.resetRequests()
    }
}

/// The server's state shared with the connection handlers: the router, the base URL and the request log.
final class SampleAPIService: Sendable {
    private let router: SampleAPIRouter
    private let baseURL = Mutex("http://127.0.0.1:0")
    private let log = Mutex<[SampleAPIRequest]>([])

    init(router: SampleAPIRouter) {
        self.router = router
    }

    func setBaseURL(_ url: String) {
        baseURL.withLock { $0 = url }
    }

    func respond(to request: SampleAPIRequest) async -> SampleAPIResponse {
        log.withLock { $0.append(request) }
        return router.respond(to: request, baseURL: baseURL.withLock { $0 }, now: .now)
    }

    func requests() -> [SampleAPIRequest] {
        log.withLock { $0 }
    }

    func resetRequests() {
        log.withLock { $0.removeAll() }
    }
}

/// Adapts FlyingFox requests and responses to the sample API's own request and response values.
struct SampleAPIHTTPHandler: HTTPHandler {
    let service: SampleAPIService

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let sampleRequest = SampleAPIRequest(
            method: request.method.rawValue.uppercased(),
            path: request.target.path(percentEncoded: false),
            query: Self.decodeQuery(request.target.query(percentEncoded: true))
        )
        let response = await service.respond(to: sampleRequest)
        var headers = HTTPHeaders()
        for (name, value) in response.headers {
            headers[HTTPHeader(name)] = value
        }
        let body: Data
        if sampleRequest.method == "HEAD" {
            headers[.contentLength] = String(response.body.count)
            body = Data()
        } else {
            body = response.body
        }
        return HTTPResponse(
            statusCode: Self.statusCode(response.status),
            headers: headers,
            body: HTTPBodySequence(data: body, suggestedBufferSize: 65_536)
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

    private static func statusCode(_ code: Int) -> HTTPStatusCode {
        switch code {
        case 200: .ok
        case 400: .badRequest
        case 404: .notFound
        case 405: .methodNotAllowed
        case 429: .tooManyRequests
        case 500: .internalServerError
        case 503: .serviceUnavailable
        default: HTTPStatusCode(code, phrase: "Status \(code)")
        }
    }
}
