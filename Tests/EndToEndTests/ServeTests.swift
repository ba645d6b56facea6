import Foundation
import SampleAPI
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrineBasics
@testable import VitrineHTTP
@testable import VitrineRender

@Suite struct ServeTests {
    /// `vitrine serve` on a folder with a few files, started, with its base URL.
    func serve() async throws -> (running: VitrineProcess.Running, url: String, workspace: Workspace) {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(
            atPath: workspace.path("site/assets"), withIntermediateDirectories: true)
        try Data("<!DOCTYPE html><title>x</title>".utf8).write(
            to: URL(fileURLWithPath: workspace.path("site/index.html")))
        let (running, base) = try await VitrineProcess.serve(workspace.path("site"))
        return (running, base, workspace)
    }

    /// Sends `request` on a new connection and returns what comes back until the server closes it (or 5 s pass),
    /// on a thread of its own: its socket calls block, and the cooperative pool's few threads must stay free.
    /// `sent` is signalled once the request has been written; `patience` is how long, in seconds, to wait for bytes.
    func exchange(_ request: [UInt8], port: Int, sent: Handshake = Handshake(), patience: Int = 5) async throws
        -> String
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        try Self.blockingExchange(request, port: port, sent: sent, patience: patience)
                    })
            }.start()
        }
    }

    /// The processor time `process` has used so far (user and system), from /proc: unlike the time on the clock, a
    /// busy machine does not stretch it.
    static func processorSeconds(of process: ChildProcess) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)
        // The fields after the command name, which is in parentheses and may hold spaces: utime and stime are the
        // 14th and 15th of the line, the 12th and 13th after the name.
        let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
        let ticks = try #require(Double(fields[11])) + (try #require(Double(fields[12])))
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// A socket connected to `port` on 127.0.0.1, or nil; its calls (connect included, so that a server that
    /// stopped accepting cannot hold a test until the kernel gives up) time out after 5 s.
    private static func connectedSocket(port: Int, patience: Int = 5) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: patience, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    private static func blockingExchange(_ request: [UInt8], port: Int, sent: Handshake, patience: Int) throws
        -> String
    {
        guard let descriptor = connectedSocket(port: port, patience: patience) else {
            throw ProcessError(message: "cannot connect to port \(port)")
        }
        defer { close(descriptor) }
        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        sent.signal()
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Finding 9 of the hostile pass: one request with a long line pinned `vitrine serve`.
    @Test func longRequestLinesAndHeadersAreRefusedAtOnceAndHEADSendsNoBody() async throws {
        let (running, url, workspace) = try await serve()
        defer { running.send(SIGKILL) }
        let port = try #require(Int(url.split(separator: ":").last!.split(separator: "/").first!))
        let startedWith = try Self.processorSeconds(of: running.process)
        for length in [16 << 10, 64 << 10, 1 << 20] {
            let answer = try await exchange(
                Array("GET /\(String(repeating: "a", count: length)) HTTP/1.1\r\nHost: x\r\n\r\n".utf8), port: port)
            #expect(answer.hasPrefix("HTTP/1.1 414") || answer.hasPrefix("HTTP/1.1 431"), "\(answer.prefix(40))")
        }
        let headers = (0..<200).map { "X-\($0): \(String(repeating: "b", count: 100))\r\n" }.joined()
        let tooMany = try await exchange(Array("GET / HTTP/1.1\r\nHost: x\r\n\(headers)\r\n".utf8), port: port)
        #expect(tooMany.hasPrefix("HTTP/1.1 431"), "\(tooMany.prefix(40))")
        // Quadratic refusal cost 1.7 s of processor time for 64 KB, so 1 MiB would take minutes; linear, all of it
        // takes a small fraction of a second. Processor time, which a busy machine does not stretch, tells them apart.
        let spent = try Self.processorSeconds(of: running.process) - startedWith
        #expect(spent < 5, "refusing is linear, not quadratic: \(spent) s of processor time")
        let fine = try await exchange(Array("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8), port: port)
        #expect(fine.hasPrefix("HTTP/1.1 200") && fine.hasSuffix("<title>x</title>"))
        let head = try await exchange(Array("HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8), port: port)
        #expect(head.hasPrefix("HTTP/1.1 200") && head.contains("Content-Length: 31") && head.hasSuffix("\r\n\r\n"))
        withExtendedLifetime(workspace) {}
    }

    /// Connects, sends `bytes` (maybe none) and resets the connection (SO_LINGER 0, then close), on a thread of
    /// its own.
    private static func sendAndReset(_ bytes: [UInt8], port: Int) {
        guard let descriptor = connectedSocket(port: port) else { return }
        if !bytes.isEmpty {
            _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        var abort = linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &abort, socklen_t(MemoryLayout<linger>.size))
        close(descriptor)
    }

    /// Item 14 of issue 24: one client that connected and reset without sending anything stopped `vitrine serve`
    /// (a response written in the idle state). No client may stop it: resets before, in the middle of and after a
    /// request head, garbage, and many of them at once.
    @Test func clientsThatResetOrSendGarbageNeverStopIt() async throws {
        let (running, url, workspace) = try await serve()
        defer { running.send(SIGKILL) }
        let port = try #require(Int(url.split(separator: ":").last!.split(separator: "/").first!))
        let openings: [[UInt8]] = [
            [], Array("GET / HTTP/1.1\r\nHo".utf8), Array("\u{0}\u{1}\u{7f}garbage\r\n\r\n".utf8),
            Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
            Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc".utf8),
            Array("GET / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\n".utf8),
            Array("GET /\(String(repeating: "a", count: 20_000)) HTTP/1.1\r\n".utf8),
        ]
        // After each opening alone, an ordinary request is answered: the server has lived through it.
        let plain = "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        for opening in openings {
            Self.sendAndReset(opening, port: port)
            let answer = try await exchange(Array(plain.utf8), port: port)
            #expect(answer.hasPrefix("HTTP/1.1 200"), "after \(opening.prefix(20)): \(answer.prefix(40))")
        }
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        Thread {
                            Self.sendAndReset(openings[index % openings.count], port: port)
                            continuation.resume()
                        }.start()
                    }
                }
            }
        }
        let fine = try await exchange(Array(plain.utf8), port: port)
        #expect(fine.hasPrefix("HTTP/1.1 200") && fine.hasSuffix("<title>x</title>"), "\(fine.prefix(40))")
        #expect(running.process.isRunning, "vitrine serve stopped")
        let garbage = try await exchange(Array("\u{1}\u{2} nonsense\r\n\r\n".utf8), port: port)
        #expect(garbage.hasPrefix("HTTP/1.1 400"), "\(garbage.prefix(40))")
        withExtendedLifetime(workspace) {}
    }

    /// A request whose head never ends (from a client that waits five minutes for an answer), and two with 256 KB
    /// request lines, are on their way when SIGTERM comes: the server stops without waiting for any of them.
    @Test func sigtermStopsItWhateverIsInFlight() async throws {
        let (running, url, workspace) = try await serve()
        let port = try #require(Int(url.split(separator: ":").last!.split(separator: "/").first!))
        let sent = (0..<3).map { _ in Handshake() }
        let hanging = Task.detached {
            try? await self.exchange(
                Array("GET /index.html HTTP/1.1\r\nHost: x\r\n".utf8), port: port, sent: sent[0], patience: 300)
        }
        let long = Array("GET /\(String(repeating: "a", count: 256 << 10)) HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        let pinning = (1...2).map { index in
            Task.detached { try? await self.exchange(long, port: port, sent: sent[index]) }
        }
        for handshake in sent { #expect(await handshake.wait(), "a request was not sent") }
        running.send(SIGTERM)
        let outcome = try await running.wait(atMost: .seconds(300))
        #expect(outcome.status == 0)
        hanging.cancel()
        pinning.forEach { $0.cancel() }
        withExtendedLifetime(workspace) {}
    }

    @Test func servesTheGalleryOnLoopbackAndNothingOutsideIt() async throws {
        let workspace = try Workspace()
        let demo = try await VitrineProcess.run(
            ["demo", "--port", "0", "--out", "Output", "--cache", "cache"], in: workspace.url)
        #expect(demo.status == 0)
        let (running, url) = try await VitrineProcess.serve(workspace.path("Output"))
        let engine = TransferEngine()
        defer { engine.shutdown() }
        let index = try await engine.fetch(FetchRequest(url: url))
        #expect(index.status == 200 && index.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(index.bodyText.contains("<!DOCTYPE html>"))
        #expect(try await engine.fetch(FetchRequest(url: url + "assets/vitrine.css")).status == 200)
        // Every image format a build writes goes out with its media type (`--formats` adds AVIF and WebP).
        let images = workspace.url.appendingPathComponent("Output/images")
        let jpeg = try #require(
            FileManager.default.contentsOfDirectory(atPath: images.path).first { $0.hasSuffix(".jpg") })
        for (name, type) in [("probe.avif", "image/avif"), ("probe.webp", "image/webp"), (jpeg, "image/jpeg")] {
            if name.hasPrefix("probe") {
                try FileManager.default.copyItem(
                    at: images.appendingPathComponent(jpeg), to: images.appendingPathComponent(name))
            }
            let served = try await engine.fetch(FetchRequest(url: url + "images/" + name))
            #expect(served.status == 200 && served.headers["content-type"] == type, "\(name)")
        }
        #expect(try await engine.fetch(FetchRequest(url: url + "items/")).status == 404)
        #expect(try await engine.fetch(FetchRequest(url: url + "%2e%2e/%2e%2e/etc/passwd")).status == 404)
        #expect(try await engine.fetch(FetchRequest(url: url + ".vitrine-manifest.json")).status == 404)
        running.send(SIGINT)
        #expect(try await running.wait().status == 0)
    }
}
