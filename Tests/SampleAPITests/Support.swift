import Foundation
import SampleAPI

/// One HTTP exchange as `/usr/bin/curl` saw it.
struct CurlResponse {
    var exitCode: Int32
    var status: Int
    var headers: [String: String]
    var body: Data
    var log: String

    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}

/// Runs curl as a child process (no URLSession: the test binary may also link libcurl-based code).
enum Curl {
    static func get(_ url: String, _ extraArguments: [String] = []) async throws -> CurlResponse {
        try await run(extraArguments + [url])
    }

    /// Runs `curl -s` with `arguments`; headers of the last response are parsed, the log is curl's stderr.
    static func run(_ arguments: [String]) async throws -> CurlResponse {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("sampleapi-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let headerURL = directory.appendingPathComponent("headers")
        let bodyURL = directory.appendingPathComponent("body")
        let logURL = directory.appendingPathComponent("log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments =
            ["-s", "--max-time", "30", "-D", headerURL.path, "-o", bodyURL.path] + arguments
        let logHandle = try FileHandle(forWritingTo: logURL)
        process.standardError = logHandle
        process.standardOutput = FileHandle.nullDevice
        let exitCode: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                continuation.resume(throwing: error)
            }
        }
        try logHandle.close()

        let headerText = (try? String(contentsOf: headerURL, encoding: .utf8)) ?? ""
        let lastResponse = headerText.components(separatedBy: "\r\n\r\n").filter { !$0.isEmpty }.last ?? ""
        var lines = lastResponse.components(separatedBy: "\r\n")
        let statusLine = lines.isEmpty ? "" : lines.removeFirst()
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[line[..<colon].lowercased()] = value
        }
        let statusParts = statusLine.split(separator: " ")
        return CurlResponse(
            exitCode: exitCode,
            status: statusParts.count > 1 ? Int(statusParts[1]) ?? 0 : 0,
            headers: headers,
            body: (try? Data(contentsOf: bodyURL)) ?? Data(),
            log: (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        )
    }
}

extension Curl {
    /// Fetches every URL of `urls` with at most `width` curl processes at a time; the responses in `urls` order.
    static func getAll(_ urls: [String], width: Int = 8) async throws -> [CurlResponse] {
        try await withThrowingTaskGroup(of: (Int, CurlResponse).self) { group in
            var responses = [CurlResponse?](repeating: nil, count: urls.count)
            var next = 0
            func startNext() {
                guard next < urls.count else { return }
                let (index, url) = (next, urls[next])
                group.addTask { (index, try await Curl.get(url)) }
                next += 1
            }
            for _ in 0..<width {
                startNext()
            }
            while let (index, response) = try await group.next() {
                responses[index] = response
                startNext()
            }
            return responses.compactMap { $0 }
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

/// Width and height from a JPEG's start-of-frame marker.
func jpegDimensions(_ data: Data) -> (width: Int, height: Int)? {
    let bytes = [UInt8](data)
    guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
    var offset = 2
    while offset + 9 < bytes.count {
        guard bytes[offset] == 0xFF else { return nil }
        let marker = bytes[offset + 1]
        if marker == 0xFF {
            offset += 1
            continue
        }
        let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
            let height = Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6])
            let width = Int(bytes[offset + 7]) << 8 | Int(bytes[offset + 8])
            return (width, height)
        }
        offset += 2 + length
    }
    return nil
}

/// Whether `data` starts with the JPEG signature FF D8 FF.
func isJPEG(_ data: Data) -> Bool {
    data.prefix(3) == Data([0xFF, 0xD8, 0xFF])
}

/// The capture groups of `pattern` matched against the whole of `text`, or nil when it does not match.
func captures(_ pattern: String, in text: String) -> [String]? {
    guard let regex = try? Regex(pattern), let match = try? regex.wholeMatch(in: text) else { return nil }
    return match.output.dropFirst().map { $0.substring.map(String.init) ?? "" }
}
