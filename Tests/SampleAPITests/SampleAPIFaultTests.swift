import Foundation
import SampleAPI
import Synchronization
import Testing
import VitrineTestSupport

private let key = SampleAPIServer.demoKey

/// Starts a server with `faults`, runs `body` with it and stops it again.
private func withFaults<T>(
    _ faults: [SampleAPIFault],
    _ body: (SampleAPIServer) async throws -> T
) async throws -> T {
    try await withServer(SampleAPIConfiguration(faults: faults), body)
}

/// How many of a test's requests have been answered, counted from the tasks that sent them.
private final class AnswerCount: Sendable {
    let count = Mutex(0)
}

/// The `Retry-After` HTTP-date format of RFC 9110 (IMF-fixdate).
private func parseIMFFixdate(_ text: String) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.date(from: text)
}

@Suite("Sample API fault injection over HTTP")
struct SampleAPIFaultTests {
    /// Four delayed requests are held at once: all four reach the server while none has been let go (a server that
    /// served one connection after another would hold the first and never read the others).
    @Test func delayHoldsEachResponseWithoutSerializingConnections() async throws {
        let released = Handshake()
        let pauses = Mutex<[Duration]>([])
        var configuration = SampleAPIConfiguration(
            faults: [SampleAPIFault(.delay(milliseconds: 6_000), on: .api, times: 4)])
        configuration.pause = { duration in
            pauses.withLock { $0.append(duration) }
            await released.wait()
        }
        try await withServer(configuration) { server in
            let url = "\(await server.pixabayEndpoint)?key=\(key)&q=hamburg&per_page=3"
            let answered = AnswerCount()
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        let response = try await SocketHTTPClient.fetch(url, timeout: .seconds(600))
                        answered.count.withLock { $0 += 1 }
                        return response.status
                    }
                }
                let allCame = await server.requests(atLeast: 4, within: .seconds(300)) { _ in true } != nil
                #expect(allCame, "the held requests did not all reach the server")
                #expect(answered.count.withLock { $0 } == 0, "a request was answered before it was let go")
                released.signal()
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == [200, 200, 200, 200])
            #expect(pauses.withLock { $0 } == Array(repeating: .milliseconds(6_000), count: 4))

            // The fault's budget is spent: the fifth is answered without a delay.
            let afterBudget = try await SocketHTTPClient.fetch(url)
            #expect(afterBudget.status == 200)
            #expect(pauses.withLock { $0.count } == 4)
            #expect(server.injectedFaultCounts() == [4])
        }
    }

    @Test func statusFaultsClaimTheFirstMatchingRequestsInRuleOrder() async throws {
        let faults = [
            SampleAPIFault(.status(503, body: "Down for maintenance"), on: .api, queryContains: "Flower", times: 2),
            try SampleAPIFault.parse("api:500:1"),
            try SampleAPIFault.parse("images:502:1"),
        ]
        try await withFaults(faults) { server in
            let endpoint = await server.pixabayEndpoint
            let baseURL = await server.baseURL
            func search(_ query: String) async throws -> HTTPExchange {
                try await SocketHTTPClient.fetch("\(endpoint)?key=\(key)&per_page=3&q=\(query)")
            }
            let first = try await search("red+flower")
            #expect(first.status == 503)
            #expect(first.text == "Down for maintenance")
            #expect(first.header("Content-Type")?.hasPrefix("text/plain") == true)
            #expect(first.header("Content-Length") == String(first.body.count))

            let other = try await search("hamburg")
            #expect(other.status == 500)
            #expect(other.text == "[ERROR 500] Internal Server Error (injected by the sample API).")
            #expect(try await search("FLOWERS").status == 503)
            #expect(try await search("flower").status == 200)
            #expect(try await search("hamburg").status == 200)

            let image = try await SocketHTTPClient.fetch("\(baseURL)/get/3-city04_640.jpg")
            #expect(image.status == 502)
            let imageAgain = try await SocketHTTPClient.fetch("\(baseURL)/get/3-city04_640.jpg")
            #expect(imageAgain.status == 200 && isJPEG(imageAgain.body))
            #expect(try await SocketHTTPClient.fetch("\(baseURL)/").status == 200)
            #expect(server.injectedFaultCounts() == [2, 1, 1])
            #expect(server.requests().count == 8)
        }
    }

    @Test func faultBudgetIsExactUnderConcurrentRequests() async throws {
        try await withFaults([try SampleAPIFault.parse("api:500:5")]) { server in
            let url = "\(await server.pixabayEndpoint)?key=\(key)&per_page=3"
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<16 {
                    group.addTask { try await SocketHTTPClient.fetch(url).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 500 }.count == 5)
            #expect(statuses.filter { $0 == 200 }.count == 11)
            #expect(server.injectedFaultCounts() == [5])
        }
    }

    @Test func rateLimitedFaultSendsRetryAfterInSeconds() async throws {
        let faults = [try SampleAPIFault.parse("api:retry-after=2:1"), try SampleAPIFault.parse("api:429:1")]
        try await withFaults(faults) { server in
            let url = "\(await server.pixabayEndpoint)?key=\(key)&per_page=3"
            let limited = try await SocketHTTPClient.fetch(url)
            #expect(limited.status == 429)
            #expect(limited.text == "API rate limit exceeded")
            #expect(limited.header("Content-Type")?.hasPrefix("text/plain") == true)
            #expect(limited.header("Retry-After") == "2")
            #expect(limited.header("X-RateLimit-Limit") == "100")
            #expect(limited.header("X-RateLimit-Remaining") == "0")
            #expect(limited.header("X-RateLimit-Reset") == "2")

            let withoutRetryAfter = try await SocketHTTPClient.fetch(url)
            #expect(withoutRetryAfter.status == 429)
            #expect(withoutRetryAfter.header("Retry-After") == nil)
            #expect(withoutRetryAfter.header("X-RateLimit-Reset") == "60")

            let normal = try await SocketHTTPClient.fetch(url)
            #expect(normal.status == 200)
            #expect(normal.header("X-RateLimit-Remaining") == "99", "injected 429s do not spend the real budget")
        }
    }

    @Test func rateLimitedFaultSendsRetryAfterAsHTTPDate() async throws {
        try await withFaults([try SampleAPIFault.parse("api:retry-after-date=30:1")]) { server in
            let url = "\(await server.pixabayEndpoint)?key=\(key)&per_page=3"
            let sent = Date()
            let limited = try await SocketHTTPClient.fetch(url)
            let received = Date()
            #expect(limited.status == 429)
            #expect(limited.text == "API rate limit exceeded")
            let value = try #require(limited.header("Retry-After"))
            let days = "(Mon|Tue|Wed|Thu|Fri|Sat|Sun)"
            let months = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
            #expect(captures(#"\#(days), \d\d \#(months) \d{4} \d\d:\d\d:\d\d GMT"#, in: value) != nil, "\(value)")
            let date = try #require(parseIMFFixdate(value))
            // 30 s after the moment the server answered, rounded up to a whole second: between these two.
            #expect(date >= sent.addingTimeInterval(30), "\(value) is less than 30 s after the request")
            #expect(date <= received.addingTimeInterval(31), "\(value) is more than 31 s after the answer")
            #expect(limited.header("X-RateLimit-Reset") == "30")
            #expect(try await SocketHTTPClient.fetch(url).status == 200)
        }
    }

    @Test func truncatedBodyIsShorterThanItsContentLength() async throws {
        let faults = [try SampleAPIFault.parse("images:truncate:1"), try SampleAPIFault.parse("api:truncate:1")]
        try await withFaults(faults) { server in
            let imageURL = "\(await server.baseURL)/get/7-city02_1280.jpg"
            let truncated = try await SocketHTTPClient.fetch(imageURL)
            let full = try await SocketHTTPClient.fetch(imageURL)
            #expect(full.failure == nil && isJPEG(full.body))
            #expect(truncated.failure == .truncated(missing: full.body.count - full.body.count / 2))
            #expect(truncated.status == 200)
            #expect(truncated.header("Content-Type") == "image/jpeg")
            #expect(truncated.header("Content-Length") == String(full.body.count))
            #expect(truncated.body == full.body.prefix(full.body.count / 2))

            let searchURL = "\(await server.pixabayEndpoint)?key=\(key)&q=hamburg"
            let truncatedSearch = try await SocketHTTPClient.fetch(searchURL)
            let fullSearch = try await SocketHTTPClient.fetch(searchURL)
            #expect(truncatedSearch.failure == .truncated(missing: fullSearch.body.count - fullSearch.body.count / 2))
            #expect(truncatedSearch.header("Content-Length") == String(fullSearch.body.count))
            #expect(truncatedSearch.body == fullSearch.body.prefix(fullSearch.body.count / 2))
            #expect(fullSearch.failure == nil && fullSearch.status == 200)
        }
    }

    @Test func resetMidBodyAbortsTheTransfer() async throws {
        try await withFaults([try SampleAPIFault.parse("images:reset:1")]) { server in
            let imageURL = "\(await server.baseURL)/get/8-graffiti02_1280.jpg"
            let reset = try await SocketHTTPClient.fetch(imageURL)
            let full = try await SocketHTTPClient.fetch(imageURL)
            #expect(full.failure == nil && isJPEG(full.body))
            #expect(reset.failure == .connectionReset)
            #expect(reset.status == 200)
            #expect(reset.header("Content-Length") == String(full.body.count))
            #expect(reset.body.count < full.body.count)
            #expect(reset.body == full.body.prefix(reset.body.count))
        }
    }

    @Test func wrongContentTypeSendsHTMLLabelledAsJPEG() async throws {
        try await withFaults([try SampleAPIFault.parse("images:wrong-type:1")]) { server in
            let url = "\(await server.baseURL)/photo/2-city03_150.jpg"
            let response = try await SocketHTTPClient.fetch(url)
            #expect(response.failure == nil)
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "image/jpeg")
            #expect(response.header("Content-Length") == String(response.body.count))
            #expect(response.text.hasPrefix("<!DOCTYPE html>"))
            #expect(!isJPEG(response.body))
            #expect(isJPEG(try await SocketHTTPClient.fetch(url).body))
        }
    }

    @Test func oversizedBodyHasExactlyTheRequestedLength() async throws {
        let bytes = 5 << 20
        try await withFaults([try SampleAPIFault.parse("images:oversized=5m:2")]) { server in
            let url = "\(await server.baseURL)/get/4-city05_640.jpg"
            let response = try await SocketHTTPClient.fetch(url)
            #expect(response.failure == nil)
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "image/jpeg")
            #expect(response.header("Content-Length") == String(bytes))
            #expect(response.body.count == bytes)
            #expect(response.body.prefix(4) == Data([0xFF, 0xD8, 0xFF, 0xE0]))
            #expect(response.body.dropFirst(20).allSatisfy { $0 == 0 })

            let head = try await SocketHTTPClient.fetch(url, method: "HEAD")
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == String(bytes))
            #expect(head.body.count < 1000)

            let normal = try await SocketHTTPClient.fetch(url)
            #expect(normal.status == 200 && normal.body.count < bytes && jpegDimensions(normal.body) != nil)
        }
    }

    /// A stalled answer sends its first bytes and then nothing, while the server answers others. The stall outlasts
    /// the client's patience, which outlasts the test's steps however busy the machine: only the stop can end the
    /// exchange before the client gives up.
    @Test func stallHoldsTheConnectionWhileOthersAreServed() async throws {
        try await withFaults([try SampleAPIFault.parse("api:stall=3600:1")]) { server in
            let url = "\(await server.pixabayEndpoint)?key=\(key)&q=hamburg"
            let (bodyStarted, stalledEnded) = (Handshake(), Handshake())
            let stalledExchange = Task {
                defer { stalledEnded.signal() }
                return try await SocketHTTPClient.fetch(url, timeout: .seconds(900), bodyStarted: bodyStarted)
            }
            #expect(await bodyStarted.wait(atMost: .seconds(300)), "the stalled answer sent nothing")
            let normal = try await SocketHTTPClient.fetch(url)
            #expect(normal.status == 200 && normal.failure == nil, "no request was served while the other one stalled")
            #expect(!stalledEnded.isSignalled, "the stalled answer did not hold its connection")

            await server.stop()
            let stalled = try await stalledExchange.value
            let cutOff = HTTPExchange.Failure.truncated(missing: normal.body.count - 16)
            #expect(stalled.failure == cutOff, "not cut off by the stop: \(String(describing: stalled.failure))")
            #expect(stalled.status == 200)
            #expect(stalled.header("Content-Type") == "application/json")
            #expect(stalled.header("Content-Length") == String(normal.body.count))
            #expect(stalled.body == normal.body.prefix(16))
        }
    }

    /// The stall outlasts the client's patience: an exchange cut off (not timed out) shows the stop did not wait.
    @Test func stopDoesNotWaitForAStalledClient() async throws {
        try await withFaults([try SampleAPIFault.parse("images:stall=3600")]) { server in
            let url = "\(await server.baseURL)/get/1-city01_640.jpg"
            let bodyStarted = Handshake()
            async let stalledResult = SocketHTTPClient.fetch(url, timeout: .seconds(900), bodyStarted: bodyStarted)
            #expect(await bodyStarted.wait(atMost: .seconds(300)), "the stalled answer sent nothing")
            await server.stop()
            let stalled = try await stalledResult
            let length = try #require(stalled.header("Content-Length").flatMap { Int($0) })
            #expect(stalled.failure == .truncated(missing: length - 16), "\(String(describing: stalled.failure))")
            #expect(stalled.status == 200)
            #expect(stalled.body.count == 16)
        }
    }

    /// Nor does a stop wait out a delayed answer's pause: the pause is cancelled before the event loops go (a response
    /// made later would be sent on a loop that is no more), and the request ends unanswered. Started again, the server
    /// delays and answers as before.
    @Test func stopCancelsADelayedAnswerWhichIsNeverSent() async throws {
        let (paused, cancelled) = (Handshake(), Handshake())
        let pauses = Mutex(0)
        var configuration = SampleAPIConfiguration(faults: [SampleAPIFault(.delay(milliseconds: 600_000), on: .api)])
        configuration.pause = { duration in
            let number = pauses.withLock { count in
                count += 1
                return count
            }
            guard number == 1 else { return }
            paused.signal()
            if (try? await Task.sleep(for: duration)) == nil { cancelled.signal() }
        }
        let server = SampleAPIServer(configuration: configuration)
        try await server.start()
        let url = "\(await server.pixabayEndpoint)?key=\(key)&q=hamburg"
        async let delayed = SocketHTTPClient.fetch(url)
        #expect(await paused.wait(atMost: .seconds(600)), "the delayed request never reached its pause")
        await server.stop()
        #expect(cancelled.isSignalled, "the stop returned with the pause still running")
        let unanswered = try await delayed
        #expect(unanswered.failure == .closedBeforeResponse && unanswered.status == 0)

        try await server.start()
        let answered = try await SocketHTTPClient.fetch("\(await server.pixabayEndpoint)?key=\(key)&q=hamburg")
        await server.stop()
        #expect(answered.status == 200 && answered.failure == nil)
        #expect(pauses.withLock { $0 } == 2)
    }

    @Test func malformedJSONIsCutOffInTheMiddle() async throws {
        try await withFaults([try SampleAPIFault.parse("api:malformed-json:1")]) { server in
            let url = "\(await server.pixabayEndpoint)?key=\(key)&q=hamburg"
            let malformed = try await SocketHTTPClient.fetch(url)
            let normal = try await SocketHTTPClient.fetch(url)
            #expect(malformed.failure == nil)
            #expect(malformed.status == 200)
            #expect(malformed.header("Content-Type") == "application/json")
            #expect(malformed.header("Content-Length") == String(malformed.body.count))
            #expect(malformed.body == normal.body.prefix(normal.body.count / 2))
            #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: malformed.body) }
            #expect(try JSONSerialization.jsonObject(with: normal.body) is [String: Any])
        }
    }

    @Test func hostileResultsMixOddHitsIntoAValidPage() async throws {
        try await withFaults([try SampleAPIFault.parse("api,q=hamburg:hostile")]) { server in
            let baseURL = await server.baseURL
            let response = try await SocketHTTPClient.fetch("\(baseURL)/api/?key=\(key)&q=hamburg")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.header("Content-Length") == String(response.body.count))
            let page = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            #expect(page["totalHits"] as? String == "500")
            let hits = try #require(page["hits"] as? [Any])
            #expect(hits.count == 20)

            let catalog = PixabayCatalog()
            for position in stride(from: 0, to: 20, by: 2) {
                let data = try JSONSerialization.data(withJSONObject: hits[position])
                let hit = try JSONDecoder().decode(PixabayHit.self, from: data)
                #expect(hit == catalog.hit(at: position, query: "hamburg", baseURL: baseURL))
            }
            let odd = stride(from: 1, to: 20, by: 2).map { hits[$0] }
            let objects = odd.compactMap { $0 as? [String: Any] }
            func hit(where predicate: ([String: Any]) -> Bool) -> [String: Any]? {
                objects.first(where: predicate)
            }
            func string(_ hit: [String: Any]?, _ key: String) -> String? {
                hit?[key] as? String
            }

            let control = string(hit { ($0["tags"] as? String)?.contains("<script>") == true }, "tags") ?? ""
            for needle in ["\u{0}", "\u{7}", "\u{1B}[31m", "<script>alert(1)</script>", "\"", "\u{202E}"] {
                #expect(control.contains(needle), "tags lack \(needle.debugDescription)")
            }
            #expect(hit { ($0["tags"] as? String)?.count == 100_000 } != nil)
            let script = hit { $0["webformatURL"] as? String == "javascript:alert(1)" }
            #expect(string(script, "largeImageURL") == "file:///etc/passwd")
            let dataURLs = hit { $0["previewURL"] as? String == "data:image/png;base64,AAAA" }
            #expect(string(dataURLs, "largeImageURL") == "data:image/png;base64,AAAA")
            #expect(hit { $0["webformatURL"] as? String == "ftp://127.0.0.1/x.jpg" } != nil)
            let redirectHit = hit { ($0["webformatURL"] as? String)?.hasPrefix("\(baseURL)/redirect?") == true }
            let redirecting = try #require(string(redirectHit, "webformatURL"))
            let redirect = try await SocketHTTPClient.fetch(redirecting)
            #expect(redirect.status == 302)
            #expect(redirect.header("Location") == "file:///etc/passwd")

            let oddNumbers = try #require(hit { $0["id"] is String })
            #expect(oddNumbers["previewWidth"] as? Int == -150)
            #expect(oddNumbers["previewHeight"] as? Int == 0)
            #expect(oddNumbers["webformatWidth"] as? Int == Int.max)
            let htmlUser = try #require(hit { $0["pageURL"] as? String == "javascript:alert(2)" })
            #expect(string(htmlUser, "user")?.contains("<img src=x") == true)
            #expect(odd.contains { $0 as? Int == 42 })
            #expect(objects.contains { $0["id"] == nil })
            #expect(objects.count == 9)

            let small = try await SocketHTTPClient.fetch("\(baseURL)/api/?key=\(key)&q=hamburg&per_page=3")
            let smallPage = try #require(try JSONSerialization.jsonObject(with: small.body) as? [String: Any])
            #expect((smallPage["hits"] as? [Any])?.count == 3)
            let untouched = try await SocketHTTPClient.fetch("\(baseURL)/api/?key=\(key)&q=berlin&per_page=3")
            #expect(try JSONDecoder().decode(PixabaySearchResult.self, from: untouched.body).hits.count == 3)
        }
    }

    @Test func redirectEndpoints() async throws {
        try await withServer { server in
            let baseURL = await server.baseURL
            let target = "https://example.com/a?b=c&d=%20"
            let encoded = try #require(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let redirect = try await SocketHTTPClient.fetch("\(baseURL)/redirect?to=\(encoded)")
            #expect(redirect.status == 302)
            #expect(redirect.header("Location") == target)
            #expect(redirect.header("Content-Length") == String(redirect.body.count))
            #expect(try await SocketHTTPClient.fetch("\(baseURL)/redirect").status == 400)
            let injection = try await SocketHTTPClient.fetch("\(baseURL)/redirect?to=%2Fa%0D%0ASet-Cookie:%20x=1")
            #expect(injection.status == 400)
            #expect(injection.header("Set-Cookie") == nil)

            let image = try await SocketHTTPClient.fetch("\(baseURL)/get/1-city01_640.jpg")
            server.resetRequests()
            let chain = try await SocketHTTPClient.fetch("\(baseURL)/redirect-chain/3", followingRedirects: 10)
            #expect(chain.failure == nil)
            #expect(chain.status == 200)
            #expect(chain.body == image.body)
            #expect(
                server.requests().map(\.path) == [
                    "/redirect-chain/3", "/redirect-chain/2", "/redirect-chain/1", "/get/1-city01_640.jpg",
                ]
            )
            let firstHop = try await SocketHTTPClient.fetch("\(baseURL)/redirect-chain/3")
            #expect(firstHop.status == 302)
            #expect(firstHop.header("Location") == "\(baseURL)/redirect-chain/2")
            let tooMany = try await SocketHTTPClient.fetch("\(baseURL)/redirect-chain/3", followingRedirects: 2)
            #expect(tooMany.failure == .tooManyRedirects)
            #expect(try await SocketHTTPClient.fetch("\(baseURL)/redirect-chain/0").body == image.body)
            #expect(try await SocketHTTPClient.fetch("\(baseURL)/redirect-chain/1001").status == 404)
            #expect(try await SocketHTTPClient.fetch("\(baseURL)/redirect-chain/x").status == 404)
        }
    }
}
