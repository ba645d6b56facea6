import Foundation
import SampleAPI
import Testing

private let key = SampleAPIServer.demoKey

@Suite("Sample API over HTTP")
struct SampleAPIServerTests {
    @Test func headReportsLengthWithoutBody() async throws {
        try await withServer { server in
            let url = "\(await server.baseURL)/get/5-city02_1280.jpg"
            let full = try await SocketHTTPClient.fetch(url)
            // A body after the head of the HEAD response would be read as the head of the GET's.
            let exchanges = try await SocketHTTPClient.exchangesOnOneConnection([
                .init(method: "HEAD", url: url), .init(url: url),
            ])
            let head = try #require(exchanges.first)
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == String(full.body.count))
            #expect(head.head.hasPrefix("HTTP/1.1 200"))
            #expect(head.head.hasSuffix("\r\n\r\n"))
            #expect(head.body.isEmpty)
            #expect(exchanges.count == 2 && exchanges[1].status == 200 && exchanges[1].body == full.body)
            let post = try await SocketHTTPClient.fetch(url, method: "POST")
            #expect(post.status == 405)
        }
    }

    @Test func connectionsAreKeptAlive() async throws {
        try await withServer { server in
            let baseURL = await server.baseURL
            let exchanges = try await SocketHTTPClient.exchangesOnOneConnection(
                [
                    "\(baseURL)/api/?key=\(key)&q=hamburg", "\(baseURL)/get/1-city01_640.jpg",
                    "\(baseURL)/api/?key=wrong",
                ]
                .map { .init(url: $0) })
            #expect(exchanges.map(\.reusedConnection) == [false, true, true])
            #expect(exchanges.allSatisfy { $0.failure == nil && $0.status != 0 })
            #expect(exchanges.allSatisfy { $0.header("Connection")?.lowercased() != "close" })
            #expect(server.requests().count == 3)
        }
    }

    /// The server sends a response's head and body in two writes; with Nagle's algorithm on, the body waits for the
    /// client's delayed ACK of the head, about 40 ms on every request of a kept-alive connection.
    @Test func acceptedConnectionsSendSmallWritesAtOnce() async throws {
        try await withServer { server in
            let port = await server.port
            let client = try ConnectedClientSocket(port: port)
            defer { client.close() }
            // Once the server has read a request from the connection, it has surely accepted it; kept alive, the
            // connection stays open.
            client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(await server.requests { _ in true } != nil, "the server read no request")
            let accepted = AcceptedSockets.descriptors(localPort: port, peerPort: client.localPort)
            try #require(accepted.count == 1)
            #expect(AcceptedSockets.noDelay(accepted[0]) == true)
        }
    }

    @Test func requestLogRecordsDecodedRequestsInOrder() async throws {
        try await withServer { server in
            let baseURL = await server.baseURL
            #expect(server.requests().isEmpty)
            _ = try await SocketHTTPClient.fetch("\(baseURL)/api/?key=\(key)&q=hamburg+graffiti&page=2&per_page=3")
            _ = try await SocketHTTPClient.fetch("\(baseURL)/api/?key=\(key)&q=m%C3%BCnchen%20a%26b%3Dc")
            _ = try await SocketHTTPClient.fetch("\(baseURL)/photo/1-city01_150.jpg")
            _ = try await SocketHTTPClient.fetch("\(baseURL)/")
            let log = server.requests()
            #expect(log.count == 4)
            let first = try #require(log.first)
            #expect(
                SampleAPIRequest(method: first.method, path: first.path, query: first.query)
                    == SampleAPIRequest(
                        method: "GET",
                        path: "/api/",
                        query: ["key": key, "q": "hamburg graffiti", "page": "2", "per_page": "3"]
                    )
            )
            #expect(first.headers["host"] == String(baseURL.dropFirst("http://".count)))
            #expect(log.dropFirst().first?.query["q"] == "münchen a&b=c")
            #expect(log.map(\.path) == ["/api/", "/api/", "/photo/1-city01_150.jpg", "/"])
            #expect(log.allSatisfy { $0.method == "GET" })
            server.resetRequests()
            #expect(server.requests().isEmpty)
            _ = try await SocketHTTPClient.fetch("\(baseURL)/api/?key=\(key)")
            #expect(server.requests().count == 1)
        }
    }

    @Test func requestLogIsSafeUnderConcurrentClients() async throws {
        try await withServer { server in
            let baseURL = await server.baseURL
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<12 {
                    group.addTask {
                        try await SocketHTTPClient.fetch("\(baseURL)/api/?key=\(key)&q=load+\(index)").status
                    }
                }
                for try await status in group {
                    #expect(status == 200)
                }
            }
            #expect(server.requests().count == 12)
            #expect(Set(server.requests().compactMap { $0.query["q"] }).count == 12)
        }
    }

    @Test func indexAndStandInPages() async throws {
        try await withServer { server in
            let baseURL = await server.baseURL
            let index = try await SocketHTTPClient.fetch("\(baseURL)/")
            #expect(index.status == 200)
            #expect(index.header("Content-Type")?.hasPrefix("text/plain") == true)
            #expect(index.text.contains("/api/"))

            let search = try await SocketHTTPClient.fetch("\(baseURL)/api/?key=\(key)&q=hamburg&per_page=3")
            let hit = try #require(try JSONDecoder().decode(PixabaySearchResult.self, from: search.body).hits.first)
            for url in [hit.pageURL, hit.userURL] {
                let page = try await SocketHTTPClient.fetch(url)
                #expect(page.status == 200)
                #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
                #expect(page.header("Content-Length") == String(page.body.count))
                #expect(page.text.contains("stands for"))
                #expect(page.text.contains("Pixabay"))
            }
        }
    }

    @Test func stopFreesThePort() async throws {
        let server = SampleAPIServer()
        try await server.start()
        let port = await server.port
        #expect(port != 0)
        #expect(try await SocketHTTPClient.fetch("http://127.0.0.1:\(port)/").status == 200)
        await server.stop()

        let refused = try await SocketHTTPClient.fetch("http://127.0.0.1:\(port)/")
        #expect(refused.failure == .connectionRefused)

        let successor = SampleAPIServer()
        try await successor.start(port: port)
        #expect(await successor.port == port)
        #expect(try await SocketHTTPClient.fetch("http://127.0.0.1:\(port)/").status == 200)
        await successor.stop()

        try await server.start(port: port)
        #expect(try await SocketHTTPClient.fetch("http://127.0.0.1:\(port)/").status == 200)
        await server.stop()
    }

    @Test func startingTwiceOrOnABusyPortFails() async throws {
        try await withServer { server in
            await #expect(throws: SampleAPIServerError.alreadyRunning) {
                try await server.start()
            }
            let rival = SampleAPIServer()
            await #expect(throws: (any Error).self) {
                try await rival.start(port: await server.port)
            }
            let stillServing = try await SocketHTTPClient.fetch("\(await server.baseURL)/")
            #expect(stillServing.status == 200)
        }
    }

    @Test func customKeyIsRequired() async throws {
        try await withServer(SampleAPIConfiguration(apiKey: "custom")) { server in
            let endpoint = await server.pixabayEndpoint
            let custom = try await SocketHTTPClient.fetch("\(endpoint)?key=custom")
            let demo = try await SocketHTTPClient.fetch("\(endpoint)?key=\(key)")
            #expect(custom.status == 200)
            #expect(demo.status == 400)
        }
    }
}

/// A TCP connection to 127.0.0.1 that sends nothing, held open while a test looks at the server's end of it.
private struct ConnectedClientSocket {
    let descriptor: Int32
    let localPort: UInt16

    struct ConnectFailed: Error { let errno: Int32 }

    init(port: UInt16) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard descriptor >= 0, connected == 0 else { throw ConnectFailed(errno: errno) }
        self.descriptor = descriptor
        localPort = AcceptedSockets.port(of: descriptor, peer: false) ?? 0
    }

    func close() { Glibc.close(descriptor) }

    func send(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}

/// The server's ends of connections, found among this process's file descriptors.
private enum AcceptedSockets {
    static func descriptors(localPort: UInt16, peerPort: UInt16) -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap(Int32.init).filter {
            port(of: $0, peer: false) == localPort && port(of: $0, peer: true) == peerPort
        }
    }

    static func port(of descriptor: Int32, peer: Bool) -> UInt16? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                peer ? getpeername(descriptor, $0, &length) : getsockname(descriptor, $0, &length)
            }
        }
        guard result == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
        return UInt16(bigEndian: address.sin_port)
    }

    static func noDelay(_ descriptor: Int32) -> Bool? {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &value, &length) == 0 else { return nil }
        return value != 0
    }
}
