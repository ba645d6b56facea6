import Foundation
import SampleAPI
import Testing

@testable import VitrineBasics
@testable import VitrineHTTP

@Suite struct TransferEngineTests {
    /// Runs `body` with a fresh sample API and engine, and tears both down. The server runs on this process's
    /// cooperative pool, which the suite's other tests share: on a machine kept busy it once sent nothing for the
    /// 30 s of `vitrine`'s stall limit, so these tests, which are not about stalls, allow as long as the whole
    /// transfer limit.
    func withServer(jobs: Int = 4, _ body: (TransferEngine, String) async throws -> Void) async throws {
        let server = SampleAPIServer()
        try await server.start()
        let engine = TransferEngine(configuration: .init(concurrentTransfers: jobs, stallTimeoutSeconds: 300))
        do {
            try await body(engine, await server.baseURL)
        } catch {
            await engine.stop()
            await server.stop()
            throw error
        }
        await engine.stop()
        await server.stop()
    }

    @Test func downloadsInParallelOverReusedConnections() async throws {
        try await withServer(jobs: 4) { engine, base in
            let urls = (1...24).map { "\(base)/get/\(1000 + $0)-city\(String(format: "%02d", $0 % 12 + 1))_640.jpg" }
            let responses = try await withThrowingTaskGroup(of: FetchResponse.self) { group in
                for url in urls { group.addTask { try await engine.fetch(FetchRequest(url: url)) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(responses.count == 24)
            #expect(responses.allSatisfy { $0.status == 200 && ImageFormat.sniff($0.body) == .jpeg })
            #expect(responses.allSatisfy { $0.headers["content-type"] == "image/jpeg" })
            #expect(engine.statistics.transfers == 24)
            #expect(engine.statistics.connectionsOpened <= 4)
        }
    }

    @Test func passesHTTPStatusesThrough() async throws {
        try await withServer { engine, base in
            let missing = try await engine.fetch(FetchRequest(url: "\(base)/get/1-nosuchtheme01_640.jpg"))
            #expect(missing.status == 404)
            let badKey = try await engine.fetch(FetchRequest(url: "\(base)/api/?key=wrong&q=x"))
            #expect(badKey.status == 400)
            #expect(badKey.bodyText.contains("Invalid or missing API key"))
            #expect(badKey.headers["x-ratelimit-limit"] != nil)
        }
    }

    @Test func enforcesTheBodyLimit() async throws {
        try await withServer { engine, base in
            await #expect(throws: FetchError.tooLarge(url: "\(base)/get/5-city01_1280.jpg", limit: 1_000)) {
                try await engine.fetch(FetchRequest(url: "\(base)/get/5-city01_1280.jpg", maximumBodyBytes: 1_000))
            }
        }
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/x", "javascript:alert(1)", "data:text/plain,x", "no url"])
    func refusesAnythingButHTTP(url: String) async throws {
        let engine = TransferEngine()
        defer { engine.shutdown() }
        await #expect {
            try await engine.fetch(FetchRequest(url: url))
        } throws: { error in
            if case .refusedURL = error as? FetchError { return true }
            return false
        }
        #expect(engine.statistics.transfers == 0)
    }

    @Test func followsAFewRedirectsButNotTooManyNorToOtherProtocols() async throws {
        try await withServer { engine, base in
            let short = try await engine.fetch(FetchRequest(url: "\(base)/redirect-chain/3"))
            #expect(short.status == 200 && ImageFormat.sniff(short.body) == .jpeg)
            await #expect(throws: FetchError.self) {
                try await engine.fetch(FetchRequest(url: "\(base)/redirect-chain/9"))
            }
            let hostile = "\(base)/redirect?to=file:///etc/passwd"
            await #expect {
                try await engine.fetch(FetchRequest(url: hostile))
            } throws: { error in
                switch error as? FetchError {
                case .refusedRedirect, .transport: true
                default: false
                }
            }
        }
    }

    /// Issue 24, item 16: a refused redirect named the URL asked for, as if it were not http(s) itself, and never
    /// the target. The sentence names both and says it was a redirect, without the request's key.
    @Test func aRefusedRedirectNamesItsTargetWithoutTheKey() async throws {
        try await withServer { engine, base in
            let request = FetchRequest(
                url: "\(base)/redirect?to=file:///etc/passwd&key=SECRET99", secretQueryNames: ["key"])
            await #expect(throws: FetchError.refusedRedirect(url: request.publicURL, target: "file:///etc/passwd")) {
                try await engine.fetch(request)
            }
            let sentence = FetchError.refusedRedirect(url: request.publicURL, target: "file:///etc/passwd").sentence
            #expect(
                sentence.contains("redirect from \(base)/redirect?to=") && sentence.contains(" to file:///etc/passwd:"))
            #expect(!sentence.contains("SECRET99"))
            // A URL that is refused before any transfer is still named as it was asked for.
            await #expect(throws: FetchError.refusedURL(url: "file:///etc/passwd")) {
                try await engine.fetch(FetchRequest(url: "file:///etc/passwd"))
            }
        }
    }

    /// Issue 24, item 3: a body that trickles in at 300 bytes a second never trips the stall limit (100 bytes a
    /// second) and, endless, never reaches the size cap: only a total time limit ends it, naming the URL without
    /// its key.
    @Test func anEndlessTrickleRunsOutOfTimeNamingTheURL() async throws {
        let trickle = SampleAPIFault(.trickle(bytesPerSecond: 300), on: .all)
        let server = SampleAPIServer(configuration: .init(faults: [trickle]))
        try await server.start()
        let base = await server.baseURL
        let engine = TransferEngine(configuration: .init(transferTimeoutSeconds: 3))
        let request = FetchRequest(url: "\(base)/get/1-city01_1280.jpg?key=SECRET99", secretQueryNames: ["key"])
        let started = ContinuousClock.now
        await #expect(throws: FetchError.timedOut(url: "\(base)/get/1-city01_1280.jpg", limit: 3)) {
            try await engine.fetch(request)
        }
        // Not before the limit; after it, the endless body means only the limit can have ended the transfer.
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(2_500), "\(elapsed)")
        let sentence = FetchError.timedOut(url: request.publicURL, limit: 3).sentence
        #expect(
            sentence
                == "Gave up on \(base)/get/1-city01_1280.jpg: it had not finished after 3 s, the longest a transfer may take."
        )
        await engine.stop()
        await server.stop()
    }

    @Test func reportsAnUnreachableHost() async throws {
        let engine = TransferEngine()
        defer { engine.shutdown() }
        await #expect {
            try await engine.fetch(FetchRequest(url: "http://127.0.0.1:1/x?key=SECRET99", secretQueryNames: ["key"]))
        } throws: { error in
            guard case .transport(let url, _) = error as? FetchError else { return false }
            return !url.contains("SECRET99") && !(error as! FetchError).sentence.contains("SECRET99")
        }
    }

    /// Issue 14: the transfer loop cleared cancellations it had not matched yet, so a request cancelled just before
    /// it was queued could run all the same. A task cancelled before it asks is refused and reaches no server,
    /// however the loop's turns fall.
    @Test func aRequestCancelledBeforeItIsQueuedNeverRuns() async throws {
        try await withServer { engine, base in
            for index in 0..<200 {
                let task = Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    return try await engine.fetch(FetchRequest(url: "\(base)/get/\(index)-city01_150.jpg"))
                }
                await #expect(throws: FetchError.cancelled) { try await task.value }
            }
            #expect(engine.statistics.transfers == 0)
        }
    }

    /// Issue 14: every libcurl option is checked; one it refuses fails the transfer with a sentence, not silently.
    @Test func anOptionLibcurlRefusesFailsTheTransferSayingWhich() async throws {
        let engine = TransferEngine(configuration: .init(connectTimeoutSeconds: -1))
        defer { engine.shutdown() }
        await #expect {
            try await engine.fetch(FetchRequest(url: "http://127.0.0.1:1/"))
        } throws: { error in
            guard case .transport(_, let reason) = error as? FetchError else { return false }
            return reason.hasPrefix("libcurl refused CURLOPT_CONNECTTIMEOUT = -1: ")
        }
        #expect(engine.statistics.transfers == 0)
    }

    @Test func cancellingQueuedRequestsLeavesTheOthersToFinish() async throws {
        // The server holds the first request, which takes the engine's one transfer slot, so the other 40 wait in the
        // engine's queue until the test has cancelled every second one and then the held one.
        let hold = SampleAPIFault(.delay(milliseconds: 60_000), on: .images, queryContains: "hold")
        let server = SampleAPIServer(configuration: .init(faults: [hold]))
        try await server.start()
        let base = await server.baseURL
        let engine = TransferEngine(configuration: .init(concurrentTransfers: 1, stallTimeoutSeconds: 300))
        let held = Task { try await engine.fetch(FetchRequest(url: "\(base)/get/1-city01_150.jpg?q=hold")) }
        let arrived = await server.requests { _ in true }
        try #require(arrived?.count == 1, "the held request has reached the server")
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let tasks = (1...40).map { index in
            Task {
                start.yield()
                return try await engine.fetch(FetchRequest(url: "\(base)/get/\(index)-city01_150.jpg"))
            }
        }
        var startedCount = 0
        for await _ in started {
            startedCount += 1
            if startedCount == tasks.count { break }
        }
        for (index, task) in tasks.enumerated() where index % 2 == 1 { task.cancel() }
        held.cancel()
        await #expect(throws: FetchError.cancelled) { try await held.value }
        for (index, task) in tasks.enumerated() {
            if index % 2 == 1 {
                await #expect(throws: FetchError.cancelled) { try await task.value }
            } else {
                #expect(try await task.value.status == 200)
            }
        }
        #expect(engine.statistics.transfers == 20, "queued requests are dropped when cancelled, not transferred")
        #expect(server.requests().count == 21)
        await engine.stop()
        await server.stop()
    }

    /// Issue 14: the engine's end was awaited with a semaphore, blocking a thread of the cooperative pool. A scoped
    /// engine is stopped when its body ends, by an error too, and its thread's end is awaited.
    @Test func aScopedEngineIsStoppedWhenItsBodyEndsHoweverItEnds() async throws {
        struct Failure: Error {}
        var used: TransferEngine?
        await #expect(throws: Failure.self) {
            try await withTransferEngine { engine in
                used = engine
                throw Failure()
            }
        }
        let engine = try #require(used)
        await #expect(throws: FetchError.cancelled) { try await engine.fetch(FetchRequest(url: "http://127.0.0.1:1/")) }
        let count = await withTransferEngine { engine in engine.statistics.transfers }
        #expect(count == 0)
    }

    @Test func shutsDownWithWorkInFlight() async throws {
        try await withServer { engine, base in
            let tasks = (1...8).map { index in
                Task { try await engine.fetch(FetchRequest(url: "\(base)/get/\(index)-city01_1280.jpg")) }
            }
            await engine.stop()
            for task in tasks { _ = try? await task.value }
            await #expect(throws: FetchError.cancelled) { try await engine.fetch(FetchRequest(url: "\(base)/")) }
        }
    }

    /// The first request starts the transfer loop (and loads libcurl): an engine stopped before any has no loop
    /// to wait for.
    @Test func anEngineNeverAskedForAnythingStopsAtOnceAndRefusesRequestsAfterwards() async {
        let engine = TransferEngine()
        await engine.stop()
        await #expect(throws: FetchError.cancelled) {
            try await engine.fetch(FetchRequest(url: "http://127.0.0.1:9/"))
        }
        #expect(engine.statistics.transfers == 0)
    }
}
