import Foundation
import Synchronization

/// The configured fault rules with a thread-safe count of the requests each rule has claimed.
final class FaultInjector: Sendable {
    private let rules: [SampleAPIFault]
    private let claimed: Mutex<[Int]>

    init(rules: [SampleAPIFault]) {
        self.rules = rules
        self.claimed = Mutex(Array(repeating: 0, count: rules.count))
    }

    /// The kind of the first rule that matches `request` and has budget left, after counting the request against it.
    func claim(for request: SampleAPIRequest) -> SampleAPIFault.Kind? {
        guard !rules.isEmpty else { return nil }
        return claimed.withLock { claimed in
            for (index, rule) in rules.enumerated() where rule.matches(request) {
                if let times = rule.times, claimed[index] >= times {
                    continue
                }
                claimed[index] += 1
                return rule.kind
            }
            return nil
        }
    }

    /// How many requests each rule has claimed, in rule order.
    func claimCounts() -> [Int] {
        claimed.withLock { $0 }
    }
}

/// Turns a claimed fault into the response that goes on the wire.
enum FaultResponses {
    /// How many body bytes a stalled response sends before it goes quiet.
    static let stallPrefixLength = 16

    /// How long a request `kind` claimed waits before its response is made: only a delay waits.
    static func pause(for kind: SampleAPIFault.Kind) -> Duration? {
        guard case .delay(let milliseconds) = kind else { return nil }
        return .milliseconds(max(milliseconds, 0))
    }

    /// The response for a request `kind` claimed, once its pause (`pause(for:)`) is over; `normal` produces the
    /// response the request would otherwise get.
    static func respond(
        with kind: SampleAPIFault.Kind,
        configuration: SampleAPIConfiguration,
        baseURL: String,
        normal: () -> SampleAPIResponse
    ) -> SampleAPIResponse {
        switch kind {
        case .delay:
            return normal()
        case .status(let code, let body):
            return .text(code, body)
        case .rateLimited(let retryAfter):
            return rateLimited(retryAfter: retryAfter, configuration: configuration, now: Date())
        case .truncatedBody, .resetMidBody:
            var response = normal()
            response.delivery = .cutOff(sentBytes: response.body.count / 2, reset: kind == .resetMidBody)
            return response
        case .wrongContentType:
            var response = SampleAPIResponse.html(
                title: "Sample API",
                paragraph: "This HTML page was sent with Content-Type image/jpeg by the sample API's fault injection."
            )
            response.headers["Content-Type"] = "image/jpeg"
            return response
        case .oversized(let bytes):
            let count = max(bytes, 0)
            let signature = jfifSignature.prefix(count)
            var response = SampleAPIResponse(status: 200, headers: ["Content-Type": "image/jpeg"], body: signature)
            response.delivery = .zeroPadded(count: count - signature.count)
            return response
        case .stall(let seconds):
            var response = normal()
            response.delivery = .stalled(
                sentBytes: min(stallPrefixLength, response.body.count / 2),
                duration: .seconds(max(seconds, 0))
            )
            return response
        case .trickle(let rate):
            var response = normal()
            response.delivery = .trickled(bytesPerSecond: max(rate, 1))
            return response
        case .truncatedImage(let bytes):
            var response = normal()
            response.body = response.body.prefix(max(bytes, 0))
            return response
        case .malformedJSON:
            return malformedJSON(from: normal())
        case .hugePixels:
            return SampleAPIResponse(status: 200, headers: ["Content-Type": "image/png"], body: hugePNG)
        case .turnedImage:
            var response = normal()
            response.body = Data(JPEGOrientation.insert(6, into: [UInt8](response.body)))
            return response
        case .hostileResults, .manyTags:
            let response = normal()
            guard response.status == 200,
                let result = try? JSONDecoder().decode(PixabaySearchResult.self, from: response.body),
                let body = try? kind == .manyTags
                    ? HostileResults.manyTags(from: result)
                    : HostileResults.page(from: result, baseURL: baseURL)
            else {
                return response
            }
            return SampleAPIResponse(status: 200, headers: response.headers, body: body)
        }
    }

    /// `FF D8` (start of image) and a JFIF `APP0` segment: what the first bytes of a typical JPEG look like.
    static let jfifSignature = Data([
        0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
        0x00, 0x00,
    ])

    private static func rateLimited(
        retryAfter: SampleAPIFault.RetryAfter?,
        configuration: SampleAPIConfiguration,
        now: Date
    ) -> SampleAPIResponse {
        var response = SampleAPIResponse.text(429, SampleAPIRouter.rateLimitMessage)
        response.headers["X-RateLimit-Limit"] = String(max(configuration.rateLimit, 0))
        response.headers["X-RateLimit-Remaining"] = "0"
        switch retryAfter {
        case .seconds(let seconds):
            response.headers["Retry-After"] = String(max(seconds, 0))
            response.headers["X-RateLimit-Reset"] = String(max(seconds, 0))
        case .date(let seconds):
            let wholeSeconds = (now.timeIntervalSince1970 + Double(max(seconds, 0))).rounded(.up)
            response.headers["Retry-After"] = imfFixdate(Date(timeIntervalSince1970: wholeSeconds))
            response.headers["X-RateLimit-Reset"] = String(max(seconds, 0))
        case nil:
            response.headers["X-RateLimit-Reset"] = String(max(configuration.rateWindowSeconds, 1))
        }
        return response
    }

    private static func malformedJSON(from normal: SampleAPIResponse) -> SampleAPIResponse {
        let isJSON = normal.status == 200 && normal.headers["Content-Type"] == "application/json"
        let body =
            isJSON && normal.body.count > 1
            ? normal.body.prefix(normal.body.count / 2)
            : Data(#"{"total":500,"totalHits":500,"hits":[{"id":1000001,"tags":"cut off"#.utf8)
        return SampleAPIResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(body))
    }

    /// `date` as an RFC 9110 IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func imfFixdate(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT")!
        let parts = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func twoDigits(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : String(value)
        }
        let weekday = weekdays[((parts.weekday ?? 1) - 1) % 7]
        let month = months[((parts.month ?? 1) - 1) % 12]
        let time = "\(twoDigits(parts.hour)):\(twoDigits(parts.minute)):\(twoDigits(parts.second))"
        return "\(weekday), \(twoDigits(parts.day)) \(month) \(parts.year ?? 1970) \(time) GMT"
    }
}

/// A PNG signature and an `IHDR` chunk declaring 100,000 × 100,000 pixels (8-bit RGB), with its CRC, then an empty
/// `IEND`: what an image bomb's header looks like, in 45 bytes.
let hugePNG: Data = {
    var chunk = Data("IHDR".utf8)
    for value in [UInt32(100_000), UInt32(100_000)] {
        withUnsafeBytes(of: value.bigEndian) { chunk.append(contentsOf: $0) }
    }
    chunk.append(contentsOf: [8, 2, 0, 0, 0])
    var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
    png.append(chunk)
    withUnsafeBytes(of: crc32(chunk).bigEndian) { png.append(contentsOf: $0) }
    png.append(contentsOf: [0, 0, 0, 0])
    png.append(Data("IEND".utf8))
    withUnsafeBytes(of: crc32(Data("IEND".utf8)).bigEndian) { png.append(contentsOf: $0) }
    return png
}()

/// The CRC-32 PNG chunks carry (the ISO-HDLC polynomial).
private func crc32(_ bytes: Data) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
    }
    return ~crc
}
