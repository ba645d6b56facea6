import VitrineBasics
import VitrineSources

/// Makes API text safe to store in XML 1.0 and to show: drops characters XML cannot hold and the explicit
/// bidirectional formatting characters (embeddings, overrides and isolates, U+202A–U+202E and U+2066–U+2069, which
/// would reverse the text after them in a page's title, an `alt` or a heading, where HTML cannot isolate it), and
/// caps absurd lengths. A theme isolates the text it shows (`dir="auto"`); it never sees these characters.
package enum XMLText {
    package static let maximumLength = 2_000

    package static func clean(_ value: String) -> String {
        // Most API text is short printable ASCII, which needs no change and no scalar-by-scalar copy.
        if value.utf8.count <= maximumLength, value.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) { return value }
        var scalars = String.UnicodeScalarView()
        var count = 0
        for scalar in value.unicodeScalars where keeps(scalar) {
            if count == maximumLength {
                scalars.append("…")
                break
            }
            scalars.append(scalar)
            count += 1
        }
        return String(scalars)
    }

    /// Whether `clean` keeps `scalar`: XML can hold it and it is not a C1 control or an explicit bidi control.
    package static func keeps(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: true
        case 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: false
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
