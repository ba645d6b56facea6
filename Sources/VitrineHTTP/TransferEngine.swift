internal import CCurl
import Foundation
import Synchronization
import VitrineBasics

/// Runs every HTTP transfer of a run through one libcurl multi handle, on a thread of its own, with a bounded
/// number of transfers at once and connections reused between them. The first request loads libcurl and starts
/// the thread; an engine that is never asked for anything costs neither.
public final class TransferEngine: HTTPFetching {
    /// Limits and identity for all transfers of an engine.
    public struct Configuration: Sendable {
        /// Transfers in flight at once; further requests wait for a slot.
        public var concurrentTransfers: Int
        /// How long opening a connection may take.
        public var connectTimeoutSeconds: Int
        /// A transfer slower than 100 bytes per second for this long is abandoned (and retried).
        public var stallTimeoutSeconds: Int
        /// A transfer not finished after this long in all, connection and redirects included, fails with
        /// ``FetchError/timedOut(url:limit:)``: a server that trickles an endless body fast enough never stalls.
        public var transferTimeoutSeconds: Int
        var maximumRedirects: Int
        var userAgent: String

        /// The defaults are `vitrine`'s own: 8 transfers, 15 s to connect, 30 s of stall, 300 s in all, 5 redirects.
        public init(
            concurrentTransfers: Int = 8, connectTimeoutSeconds: Int = 15, stallTimeoutSeconds: Int = 30,
            transferTimeoutSeconds: Int = 300, maximumRedirects: Int = 5,
            userAgent: String = "Vitrine/\(VitrineVersion.current)"
        ) {
            self.concurrentTransfers = max(1, concurrentTransfers)
            self.connectTimeoutSeconds = connectTimeoutSeconds
            self.stallTimeoutSeconds = stallTimeoutSeconds
            self.transferTimeoutSeconds = transferTimeoutSeconds
            self.maximumRedirects = maximumRedirects
            self.userAgent = userAgent
        }
    }

    /// Counters over the engine's lifetime.
    struct Statistics: Sendable, Equatable {
        package var transfers = 0
        var connectionsOpened = 0
    }

    private struct Inbox: Sendable {
        var waiting = WaitingQueue()
        var cancelled: Set<UInt64> = []
        var nextID: UInt64 = 0
        var shuttingDown = false
        /// The transfer loop's handle, once the first request has started the loop.
        var multi: CurlMultiHandle?
    }

    package let configuration: Configuration
    private let inbox = Mutex(Inbox())
    private let counters = Mutex(Statistics())
    /// Whether the transfer thread has ended, and who awaits its end.
    private let loopEnd = Mutex((finished: false, waiters: [CheckedContinuation<Void, Never>]()))

    package init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    var statistics: Statistics { counters.withLock { $0 } }

    /// From the configuration: what callers size their own queues by.
    public var concurrentTransfers: Int { configuration.concurrentTransfers }

    /// Runs `request` on the transfer thread and returns the whole response; a URL that is not http(s) fails at once.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        guard let scheme = URLComponents(string: request.url)?.scheme?.lowercased(), ["http", "https"].contains(scheme)
        else { throw .refusedURL(url: request.publicURL) }
        let library = try CurlLibrary.shared.get()
        let id = inbox.withLock { inbox -> UInt64 in
            inbox.nextID += 1
            return inbox.nextID
        }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let loop = inbox.withLock { inbox -> CurlMultiHandle? in
                        // A cancellation before this point may have been cleared by the loop already, which
                        // never saw the request: the task's own flag still tells.
                        guard !inbox.shuttingDown, !inbox.cancelled.contains(id), !Task.isCancelled else {
                            return nil
                        }
                        inbox.waiting.append(Waiting(id: id, request: request, continuation: continuation))
                        return startedLoop(&inbox, library)
                    }
                    if let loop { loop.wakeUp() } else { continuation.resume(throwing: FetchError.cancelled) }
                }
            } onCancel: {
                inbox.withLock { inbox in
                    inbox.cancelled.insert(id)
                    return inbox.multi
                }?.wakeUp()
            }
        } catch let error as FetchError {
            throw error
        } catch {
            throw .cancelled
        }
    }

    /// Cancels whatever is in flight and tells the transfer thread to stop, without waiting for it: requests made
    /// afterwards are refused. ``stop()`` also awaits the thread's end.
    func shutdown() {
        let (alreadyStopping, loop) = inbox.withLock { inbox -> (Bool, CurlMultiHandle?) in
            defer { inbox.shuttingDown = true }
            return (inbox.shuttingDown, inbox.multi)
        }
        guard !alreadyStopping else { return }
        // No request ever started the loop, and none can now.
        guard let loop else { return loopEnded() }
        loop.wakeUp()
    }

    /// Cancels whatever is in flight and returns once the transfer thread has ended, without blocking a thread
    /// meanwhile.
    package func stop() async {
        shutdown()
        await withCheckedContinuation { continuation in
            let finished = loopEnd.withLock { end -> Bool in
                if !end.finished { end.waiters.append(continuation) }
                return end.finished
            }
            if finished { continuation.resume() }
        }
    }

    // MARK: - The transfer thread

    /// The loop's handle; the first call (the first request) makes it and starts the transfer thread. Called with
    /// the inbox locked, so that a shutdown either comes before (and the loop never starts) or finds the handle.
    private func startedLoop(_ inbox: inout Inbox, _ library: CurlLibrary) -> CurlMultiHandle {
        if let multi = inbox.multi { return multi }
        let multi = CurlMultiHandle(library, maximumConnections: configuration.concurrentTransfers * 2)
        inbox.multi = multi
        let thread = Thread { [self] in runLoop(multi) }
        thread.name = "vitrine.transfers"
        thread.start()
        return multi
    }

    /// Tells those who await the loop's end (``stop()``) that it has ended.
    private func loopEnded() {
        let waiters = loopEnd.withLock { end in
            end.finished = true
            defer { end.waiters = [] }
            return end.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func runLoop(_ multi: CurlMultiHandle) {
        var active: [Int: ActiveTransfer] = [:]
        while true {
            let room = configuration.concurrentTransfers - active.count
            let (admitted, refused, cancelled, stopping) = inbox.withLock {
                inbox -> ([Waiting], [Waiting], Set<UInt64>, Bool) in
                let cancelled = inbox.cancelled
                var refused: [Waiting] = []
                if inbox.shuttingDown {
                    refused = inbox.waiting.removeAll()
                } else if !cancelled.isEmpty {
                    refused = inbox.waiting.remove { cancelled.contains($0.id) }
                }
                let admitted = inbox.waiting.removeFirst(max(0, room))
                inbox.cancelled = []
                return (admitted, refused, cancelled, inbox.shuttingDown)
            }
            for waiting in refused { waiting.continuation.resume(throwing: FetchError.cancelled) }
            for (key, transfer) in active where stopping || cancelled.contains(transfer.id) {
                // Cancelled either way: a handle libcurl would not detach is detached when it is cleaned up.
                _ = multi.detach(transfer.easy)
                active[key] = nil
                transfer.continuation.resume(throwing: FetchError.cancelled)
            }
            for waiting in admitted {
                let transfer = ActiveTransfer(waiting: waiting, library: multi.library)
                do {
                    if let failure = multi.setupFailure {
                        throw FetchError.transport(url: waiting.request.publicURL, reason: failure)
                    }
                    try transfer.configure(configuration)
                    transfer.started = .now
                    let added = multi.library.api.pointee.multi_add_handle(multi.raw, transfer.easy.raw)
                    guard added == CURLM_OK else {
                        throw FetchError.transport(
                            url: waiting.request.publicURL,
                            reason: "libcurl could not start the transfer: \(multi.library.multiErrorText(added))")
                    }
                    active[Int(bitPattern: transfer.easy.raw)] = transfer
                } catch {
                    transfer.continuation.resume(throwing: error)
                }
            }
            if stopping && active.isEmpty { break }

            var running: Int32 = 0
            let performed = multi.library.api.pointee.multi_perform(multi.raw, &running)
            if performed != CURLM_OK {
                // The multi handle itself failed (no memory, an internal error): what runs on it cannot finish.
                for (key, transfer) in active {
                    _ = multi.detach(transfer.easy)
                    active[key] = nil
                    transfer.continuation.resume(
                        throwing: FetchError.transport(
                            url: transfer.request.publicURL,
                            reason: "libcurl's transfer loop failed: \(multi.library.multiErrorText(performed))"))
                }
                continue
            }
            var remaining: Int32 = 0
            var finished = 0
            while let message = multi.library.api.pointee.multi_info_read(multi.raw, &remaining) {
                guard vitrine_curl_msg_is_done(message) != 0, let easy = vitrine_curl_msg_easy_handle(message),
                    let transfer = active.removeValue(forKey: Int(bitPattern: easy))
                else { continue }
                let result = vitrine_curl_msg_result(message)
                let outcome = transfer.outcome(result, detachFailure: multi.detach(transfer.easy))
                counters.withLock {
                    $0.transfers += 1
                    if case .success(let response) = outcome { $0.connectionsOpened += response.connectionsOpened }
                }
                transfer.continuation.resume(with: outcome.mapError { $0 as any Error })
                finished += 1
            }
            // A freed slot is filled at once rather than after the next socket event of the others.
            if finished > 0 && !inbox.withLock({ $0.waiting.isEmpty }) { continue }
            if active.isEmpty {
                let idle = inbox.withLock { $0.waiting.isEmpty && $0.cancelled.isEmpty && !$0.shuttingDown }
                if idle { poll(multi, milliseconds: 1000) }
            } else {
                poll(multi, milliseconds: 250)
            }
        }
        loopEnded()
    }

    /// Waits for socket activity, a wake-up or the timeout; a poll that fails at once is not retried at once.
    private func poll(_ multi: CurlMultiHandle, milliseconds: Int32) {
        if multi.library.api.pointee.multi_poll(multi.raw, nil, 0, milliseconds, nil) != CURLM_OK { usleep(10_000) }
    }
}

/// Runs `body` with a transfer engine of `configuration`, and stops the engine when `body` ends, however it ends,
/// awaiting its transfer thread's end.
public func withTransferEngine<Result>(
    configuration: TransferEngine.Configuration = .init(), _ body: (TransferEngine) async throws -> Result
) async rethrows -> Result {
    let engine = TransferEngine(configuration: configuration)
    do {
        let result = try await body(engine)
        await engine.stop()
        return result
    } catch {
        await engine.stop()
        throw error
    }
}

/// The requests waiting for a transfer slot, first come first served; taking from the front costs what is taken, not
/// what is left (a gallery queues thousands of images at once).
private struct WaitingQueue: Sendable {
    private var entries: [Waiting] = []
    private var head = 0

    var isEmpty: Bool { head == entries.count }

    mutating func append(_ waiting: Waiting) { entries.append(waiting) }

    /// Takes up to `count` requests from the front.
    mutating func removeFirst(_ count: Int) -> [Waiting] {
        let end = min(head + count, entries.count)
        let taken = Array(entries[head..<end])
        head = end
        if head == entries.count {
            entries.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 1024 && head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
        return taken
    }

    /// Takes every waiting request.
    mutating func removeAll() -> [Waiting] { removeFirst(entries.count - head) }

    /// Takes the requests that `shouldRemove` picks, keeping the others in order.
    mutating func remove(where shouldRemove: (Waiting) -> Bool) -> [Waiting] {
        guard !isEmpty else { return [] }
        let pending = entries[head...]
        let removed = pending.filter(shouldRemove)
        guard !removed.isEmpty else { return [] }
        entries = pending.filter { !shouldRemove($0) }
        head = 0
        return removed
    }
}

/// A request accepted by `fetch` that waits for a free transfer slot.
private struct Waiting: Sendable {
    let id: UInt64
    let request: FetchRequest
    let continuation: CheckedContinuation<FetchResponse, any Error>
}

/// One transfer on the loop thread: its easy handle and what has arrived so far.
private final class ActiveTransfer {
    let id: UInt64
    let request: FetchRequest
    let continuation: CheckedContinuation<FetchResponse, any Error>
    let easy: CurlEasyHandle
    var body: [UInt8] = []
    var headers: [String: String] = [:]
    var exceededLimit = false
    /// When the transfer was handed to libcurl, whose total time limit counts from then.
    var started = ContinuousClock.now
    var timeLimit = 0

    init(waiting: Waiting, library: CurlLibrary) {
        easy = CurlEasyHandle(library)
        id = waiting.id
        request = waiting.request
        continuation = waiting.continuation
    }

    /// Sets the handle up for the request; a failure is the transfer's.
    func configure(_ configuration: TransferEngine.Configuration) throws(FetchError) {
        do {
            try easy.set(CURLOPT_URL, request.url)
            try easy.set(CURLOPT_NOSIGNAL, 1)
            try easy.set(CURLOPT_FOLLOWLOCATION, 1)
            try easy.set(CURLOPT_MAXREDIRS, configuration.maximumRedirects)
            try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
            try easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
            try easy.set(CURLOPT_CONNECTTIMEOUT, configuration.connectTimeoutSeconds)
            try easy.set(CURLOPT_LOW_SPEED_LIMIT, 100)
            try easy.set(CURLOPT_LOW_SPEED_TIME, configuration.stallTimeoutSeconds)
            try easy.set(CURLOPT_TIMEOUT, configuration.transferTimeoutSeconds)
            timeLimit = configuration.transferTimeoutSeconds
            try easy.set(CURLOPT_USERAGENT, configuration.userAgent)
            try easy.set(CURLOPT_ACCEPT_ENCODING, "")
            try easy.set(CURLOPT_MAXFILESIZE_LARGE, offset: Int64(request.maximumBodyBytes))
            try easy.setHeaders(request.headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" })
            let userdata = Unmanaged.passUnretained(self).toOpaque()
            try easy.set(CURLOPT_WRITEFUNCTION, callback: appendBody)
            try easy.set(CURLOPT_WRITEDATA, pointer: userdata)
            try easy.set(CURLOPT_HEADERFUNCTION, callback: collectHeader)
            try easy.set(CURLOPT_HEADERDATA, pointer: userdata)
        } catch {
            throw error.transferError(url: request.publicURL)
        }
    }

    /// What the transfer came to, given libcurl's `result` and why libcurl would not take it out of its loop
    /// (`detachFailure`), if it would not.
    func outcome(_ result: CURLcode, detachFailure: String?) -> Result<FetchResponse, FetchError> {
        let url = request.publicURL
        if let detachFailure {
            return .failure(.transport(url: url, reason: "libcurl could not end it: \(detachFailure)"))
        }
        switch result {
        case CURLE_OK:
            guard let status = easy.info(CURLINFO_RESPONSE_CODE) else {
                return .failure(.transport(url: url, reason: "libcurl could not tell the response's status"))
            }
            return .success(
                FetchResponse(
                    status: status, headers: headers, body: body,
                    effectiveURL: easy.stringInfo(CURLINFO_EFFECTIVE_URL) ?? request.url,
                    connectionsOpened: easy.info(CURLINFO_NUM_CONNECTS) ?? 0))
        case CURLE_WRITE_ERROR where exceededLimit, CURLE_FILESIZE_EXCEEDED:
            return .failure(.tooLarge(url: url, limit: request.maximumBodyBytes))
        case CURLE_UNSUPPORTED_PROTOCOL:
            guard let target = refusedRedirectTarget else { return .failure(.refusedURL(url: url)) }
            return .failure(.refusedRedirect(url: url, target: target))
        // The stall and connect limits end a transfer with the same code, before the total limit has passed (by
        // libcurl's clock, which may run a hair apart from this one).
        case CURLE_OPERATION_TIMEDOUT where ContinuousClock.now - started >= .seconds(timeLimit) - .milliseconds(250):
            return .failure(.timedOut(url: url, limit: timeLimit))
        default:
            let detail = easy.errorMessage
            return .failure(.transport(url: url, reason: detail.isEmpty ? easy.library.errorText(result) : detail))
        }
    }
}

extension ActiveTransfer {
    /// Where the last response redirected to, when libcurl refused to follow it (its scheme is not http or https),
    /// with the request's secrets removed as from its own URL.
    fileprivate var refusedRedirectTarget: String? {
        guard let status = easy.info(CURLINFO_RESPONSE_CODE), (300...399).contains(status),
            let location = headers["location"]
        else {
            return nil
        }
        let base = URL(string: easy.stringInfo(CURLINFO_EFFECTIVE_URL) ?? request.url)
        let absolute = URL(string: location, relativeTo: base)?.absoluteString ?? location
        let target = FetchRequest(url: absolute, secretQueryNames: request.secretQueryNames).publicURL
        // A key the server echoes under another name, or the token of an `Authorization: Client-ID …` header.
        let secrets = request.secretValues.flatMap { named -> [String] in
            let value = named.drop { $0 != "=" }.dropFirst()
            return [String(value), String(value.split(separator: " ").last ?? value)]
        }
        return Redactor(secrets: secrets).redact(target)
    }
}

private let appendBody: vitrine_curl_data_callback = { data, size, count, userdata in
    guard let userdata, let data else { return 0 }
    let transfer = Unmanaged<ActiveTransfer>.fromOpaque(userdata).takeUnretainedValue()
    let length = size * count
    if transfer.body.count + length > transfer.request.maximumBodyBytes {
        transfer.exceededLimit = true
        return 0
    }
    transfer.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
    return length
}

private let collectHeader: vitrine_curl_data_callback = { data, size, count, userdata in
    guard let userdata, let data else { return 0 }
    let transfer = Unmanaged<ActiveTransfer>.fromOpaque(userdata).takeUnretainedValue()
    let length = size * count
    let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    if line.hasPrefix("HTTP/") {
        transfer.headers = [:]
    } else if let colon = line.firstIndex(of: ":") {
        let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        transfer.headers[name] = value
        // One allocation of the announced size instead of a body that doubles its way up (and is copied each time).
        if name == "content-length", let announced = Int(value), announced > transfer.body.capacity {
            transfer.body.reserveCapacity(min(announced, transfer.request.maximumBodyBytes))
        }
    }
    return length
}
