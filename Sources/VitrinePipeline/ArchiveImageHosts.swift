import Foundation

/// Where the images of a gallery's archived items may be downloaded from again. Their URLs come from the previous
/// `history.json`, which anyone who can edit the previous publish wrote; fetched from anywhere, they would make each
/// build ask whatever host they name, the build machine's own services and network included.
///
/// So an archived image's URL is fetched only when its origin (scheme, host and port) is one the gallery's source
/// uses in this build: the origin of one of its API endpoints, or of one of the images its current answers list.
/// And never when its host is `localhost` or a loopback, private, link-local, shared or unspecified address, unless
/// one of the source's own endpoints is on such a host (the sample API, a mirror on the local network): a build
/// against a public API never reaches inward whatever its answers or its history say.
struct ArchiveImageHosts: Sendable {
    private let origins: Set<String>
    private let inwardAllowed: Bool
    /// Header fields each download from these hosts sends, as the source's own downloads do.
    let headers: [String: String]

    /// The hosts of a source with these `endpoints`, whose current answers list `imageURLs`, and whose downloads
    /// send `headers`.
    init(endpoints: [String], imageURLs: some Sequence<String>, headers: [String: String] = [:]) {
        self.headers = headers
        let endpointHosts = endpoints.compactMap { URLComponents(string: $0) }
        inwardAllowed = endpointHosts.contains { Self.isInward(host: $0.host ?? "") }
        origins = Set(endpoints.compactMap(Self.origin(of:)) + imageURLs.compactMap(Self.origin(of:)))
    }

    /// Whether `url` may be fetched.
    func allows(_ url: String) -> Bool {
        guard let origin = Self.origin(of: url), origins.contains(origin),
            let host = URLComponents(string: url)?.host
        else { return false }
        return inwardAllowed || !Self.isInward(host: host)
    }

    /// `scheme://host:port`, lowercased, with the scheme's default port made explicit; nil for what is not an
    /// http(s) URL with a host.
    static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        return "\(scheme)://\(host):\(components.port ?? (scheme == "https" ? 443 : 80))"
    }

    /// Whether `host` names this machine or a network that is not the public internet: `localhost` and its
    /// subdomains, or an address (in any form the resolver takes, such as `2130706433` or `0x7f.1`) that is
    /// loopback, private (RFC 1918, unique local), link-local, shared (RFC 6598) or unspecified.
    static func isInward(host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]."))
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        var v4 = in_addr()
        if inet_aton(name, &v4) != 0 { return isInward(v4: UInt32(bigEndian: v4.s_addr)) }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, name, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return isInward(v4: bytes[12..<16].reduce(0) { $0 << 8 | UInt32($1) })
        }
        let loopbackOrUnspecified = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] <= 1
        return loopbackOrUnspecified || bytes[0] & 0xFE == 0xFC || (bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80)
    }

    private static func isInward(v4 address: UInt32) -> Bool {
        let prefixes: [(network: UInt32, bits: UInt32)] = [
            (0x0000_0000, 8), (0x0A00_0000, 8), (0x6440_0000, 10), (0x7F00_0000, 8), (0xA9FE_0000, 16),
            (0xAC10_0000, 12), (0xC0A8_0000, 16),
        ]
        return prefixes.contains { address >> (32 - $0.bits) == $0.network >> (32 - $0.bits) }
    }
}
