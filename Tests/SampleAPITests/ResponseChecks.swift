import Foundation
import Testing
import VitrineBasics

/// Width and height from a JPEG's start-of-frame marker, read as Vitrine reads a downloaded image's.
func jpegDimensions(_ data: Data) -> (width: Int, height: Int)? {
    guard isJPEG(data) else { return nil }
    return ImageDimensions.read([UInt8](data), format: .jpeg)
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
