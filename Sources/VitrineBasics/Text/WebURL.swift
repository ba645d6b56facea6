/// An absolute http or https URL that can stand as it is wherever Vitrine puts one: a request, an `src`, a `srcset`
/// candidate, a feed, JSON-LD. It is printable ASCII without spaces, quotes, angle brackets or a trailing comma (so
/// no `srcset` splits it into other candidates or drops part of it), names a host of its own (no user name or
/// password) and is at most `maximumLength` characters long, so that no model or page ever cuts it.
///
/// `WebURL(_:)` takes a text that is one as it stands, such as what Vitrine wrote into a history or a shard's record;
/// `WebURL.encoding(_:)` takes an API's, percent-encoding what a URL cannot hold as it is and refusing the rest.
package struct WebURL: Sendable, Hashable, CustomStringConvertible {
    /// The URL.
    package let text: String
    /// Where its path starts and ends in `text`'s UTF-8 (the query and fragment, if any, follow it).
    private let path: Range<Int>

    /// The longest URL accepted: the model's longest text (`XMLText.maximumLength`), so a URL is never cut.
    package static let maximumLength = 2_000

    package var description: String { text }

    /// Why a text cannot be a web URL, worded to follow "its URL was refused: ".
    package enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case notHTTP
        case control
        case badHost
        case credentials
        case badEscape
        case tooLong

        package var description: String {
            switch self {
            case .notHTTP: "it is not an http or https URL"
            case .control: "it holds a control character or a line break"
            case .badHost: "its host is not a host name or an address"
            case .credentials: "it carries a user name or a password"
            case .badEscape: "it holds a “%” that starts no percent-encoded byte"
            case .tooLong: "it is longer than \(WebURL.maximumLength) characters"
            }
        }
    }

    /// `text`, when it is a web URL as it stands: nothing in it needs encoding.
    package init?(_ text: String) {
        guard case .success(let url) = Self.encoding(text), url.text == text else { return nil }
        self = url
    }

    private init(text: String, path: Range<Int>) {
        self.text = text
        self.path = path
    }

    /// `text` as a web URL, its path, query and fragment percent-encoded where a URL cannot hold a character as it
    /// is (a space, `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`, `[`, `]`, a second `#`, a trailing comma,
    /// anything past ASCII, as UTF-8); refused when it is not http or https, holds a control character (a line
    /// break among them) or a `%` that encodes nothing, has no plain host (a name, an IPv4 or a bracketed IPv6
    /// address, with a port) or one with a user name, or is longer than `maximumLength` once encoded.
    package static func encoding(_ text: String) -> Result<WebURL, Refusal> {
        guard text.utf8.count <= maximumLength else { return .failure(.tooLong) }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            return .failure(.control)
        }
        let input = Array(text.utf8)
        let lowered = input.prefix(8).map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
        let schemeLength: Int
        if lowered.starts(with: Array("https://".utf8)) {
            schemeLength = 8
        } else if lowered.starts(with: Array("http://".utf8)) {
            schemeLength = 7
        } else {
            return .failure(.notHTTP)
        }
        let authorityEnd =
            input[schemeLength...].firstIndex { $0 == ascii("/") || $0 == ascii("?") || $0 == ascii("#") }
            ?? input.count
        let authority = input[schemeLength..<authorityEnd]
        guard !authority.contains(ascii("@")) else { return .failure(.credentials) }
        guard isHostAndPort(authority) else { return .failure(.badHost) }

        var output = Array(input[..<authorityEnd])
        var pathEnd: Int?
        var inFragment = false
        var index = authorityEnd
        while index < input.count {
            let byte = input[index]
            switch byte {
            case ascii("%"):
                guard index + 2 < input.count, isHexDigit(input[index + 1]), isHexDigit(input[index + 2]) else {
                    return .failure(.badEscape)
                }
                output += input[index...index + 2]
                index += 3
                continue
            case ascii("#") where inFragment:
                appendEscaped(byte, to: &output)
            case ascii("#"), ascii("?"):
                if pathEnd == nil { pathEnd = output.count }
                if byte == ascii("#") { inFragment = true }
                output.append(byte)
            case _ where allowedAsIs.contains(byte):
                output.append(byte)
            default:
                appendEscaped(byte, to: &output)
            }
            index += 1
        }
        var trailingCommas = 0
        while output.last == ascii(",") {
            output.removeLast()
            trailingCommas += 1
        }
        for _ in 0..<trailingCommas { appendEscaped(ascii(","), to: &output) }
        guard output.count <= maximumLength else { return .failure(.tooLong) }
        return .success(
            WebURL(text: String(decoding: output, as: UTF8.self), path: authorityEnd..<(pathEnd ?? output.count)))
    }

    /// The URL with `marker` in the name of the file its path ends in (after the path's last `/`) replaced by
    /// `replacement`, when the name holds it exactly once; its host, query and fragment stay as they are. Nil when
    /// the path has no file name holding the marker once, or the result would not be a web URL as it stands.
    package func replacingOnceInFileName(_ marker: String, with replacement: String) -> WebURL? {
        let bytes = Array(text.utf8)
        let marker = Array(marker.utf8)
        guard !marker.isEmpty, let slash = bytes[path].lastIndex(of: ascii("/")) else { return nil }
        var found: Int?
        var index = slash + 1
        while index + marker.count <= path.upperBound {
            if bytes[index..<index + marker.count].elementsEqual(marker) {
                guard found == nil else { return nil }
                found = index
                index += marker.count
            } else {
                index += 1
            }
        }
        guard let found else { return nil }
        let replaced = bytes[..<found] + Array(replacement.utf8) + bytes[(found + marker.count)...]
        return WebURL(String(decoding: replaced, as: UTF8.self))
    }

    /// The ASCII a path, query or fragment holds as it is: RFC 3986's unreserved and reserved characters but the
    /// brackets, which only an IPv6 host may hold, and `%`, `?` and `#`, which are handled on their own.
    private static let allowedAsIs: Set<UInt8> = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/@!$&'()*+,;=".utf8)

    /// A host name (letters, digits, `-`, `.`, `_`), or an IPv6 address in brackets, then perhaps `:` and a port.
    private static func isHostAndPort(_ authority: ArraySlice<UInt8>) -> Bool {
        var hostEnd = authority.endIndex
        if authority.first == ascii("[") {
            guard let close = authority.firstIndex(of: ascii("]")), close > authority.startIndex + 1,
                authority[(authority.startIndex + 1)..<close].allSatisfy({
                    isHexDigit($0) || $0 == ascii(":") || $0 == ascii(".")
                })
            else { return false }
            hostEnd = close + 1
            guard hostEnd == authority.endIndex || authority[hostEnd] == ascii(":") else { return false }
        } else {
            hostEnd = authority.firstIndex(of: ascii(":")) ?? authority.endIndex
            let host = authority[..<hostEnd]
            guard !host.isEmpty, host.count <= 253,
                host.allSatisfy({ isLetterOrDigit($0) || $0 == ascii("-") || $0 == ascii(".") || $0 == ascii("_") })
            else { return false }
        }
        guard hostEnd < authority.endIndex else { return true }
        let port = authority[(hostEnd + 1)...]
        guard (1...5).contains(port.count), port.allSatisfy({ (0x30...0x39).contains($0) }),
            let number = Int(String(decoding: port, as: UTF8.self)), number <= 65_535
        else { return false }
        return true
    }

    private static func appendEscaped(_ byte: UInt8, to output: inout [UInt8]) {
        let hex = Array("0123456789ABCDEF".utf8)
        output += [ascii("%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}

private func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(ascii: character) }
