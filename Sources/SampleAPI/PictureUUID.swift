/// The version-4-shaped UUIDs the sample catalogues give their images (the media-coverage thumbnails, Openverse's
/// results), whose last group names the sample picture: a theme digit, the picture's number in two hex digits and
/// nine hex digits of checksum over the rest, so that a fresh server serves the URLs an earlier one handed out and
/// no other text passes for one. The checksum is salted per catalogue, so that no id of one passes for another's.
struct PictureUUID {
    /// What each catalogue's checksum is salted with.
    let salt: String

    /// A UUID from `seed` whose last group encodes picture `number` of `theme`.
    func make(seed: UInt64, theme: String, number: Int) -> String {
        let hex = Array(Digits.hex(seed, width: 16) + Digits.hex(seed &* 0x9e37_79b9_7f4a_7c15, width: 16))
        let variant = Array("89ab")[Int(seed >> 62)]
        let prefix =
            String(hex[0..<8]) + "-" + String(hex[8..<12]) + "-4" + String(hex[12..<15]) + "-" + String(variant)
            + String(hex[15..<18])
        return make(prefix: prefix, theme: theme, number: number)
    }

    /// The theme and picture number `uuid` encodes, or nil for a text this scheme did not make.
    func picture(in uuid: String) -> (theme: String, number: Int)? {
        let groups = uuid.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12],
            uuid.allSatisfy({ $0 == "-" || ("0"..."9").contains($0) || ("a"..."f").contains($0) })
        else {
            return nil
        }
        let last = groups[4]
        let theme: String
        switch last.first {
        case "1": theme = "city"
        case "2": theme = "graffiti"
        default: return nil
        }
        guard let number = Int(last.dropFirst().prefix(2), radix: 16), number >= 1,
            uuid == make(prefix: String(uuid.prefix(23)), theme: theme, number: number)
        else {
            return nil
        }
        return (theme, number)
    }

    /// `prefix` (the first four groups and their dashes) followed by the last group.
    private func make(prefix: String, theme: String, number: Int) -> String {
        let head = "\(theme == "graffiti" ? 2 : 1)\(Digits.hex(UInt64(number), width: 2))"
        let checksum = Digits.hex(PixabayCatalog.stableHash("\(salt)\(prefix)-\(head)"), width: 9)
        return "\(prefix)-\(head)\(checksum)"
    }
}
