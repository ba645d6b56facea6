import Foundation
import Testing

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

/// Whether `value` came from a JSON string (`"1000"`), as opposed to a JSON number.
func isString(_ value: Any?) -> Bool {
    value is String
}

/// Whether `value` came from a JSON number; on Linux numbers arrive as `NSNumber`, never as `String`.
func isNumber(_ value: Any?) -> Bool {
    value != nil && !(value is String) && (value as? NSNumber) != nil
}

/// Fetches every `(url, width, height)` and checks each is a JPEG of exactly that size.
func expectJPEGs(_ checks: [(url: String, width: Int, height: Int)]) async throws {
    let responses = try await SocketHTTPClient.fetchAll(checks.map(\.url))
    #expect(responses.count == checks.count)
    for (check, response) in zip(checks, responses) {
        #expect(response.status == 200, "\(check.url)")
        #expect(isJPEG(response.body), "\(check.url)")
        #expect(response.header("Content-Type") == "image/jpeg")
        #expect(response.header("Content-Length") == String(response.body.count))
        let size = try #require(jpegDimensions(response.body), "\(check.url)")
        #expect(size.width == check.width && size.height == check.height, "\(check.url)")
    }
}
