import Foundation

/// How search text is folded so that a query matches whatever case and accents the indexed text has ("muller" finds
/// "Müller"): the one definition on the Swift side; `fold` in Templates/vitrine.js is the same steps in JavaScript,
/// and Tests/Fixtures/search-folding.json holds hostile strings with their folded forms, which both sides are tested
/// against.
///
/// Twice over: lower case (Unicode's default mapping), then compatibility decomposition (NFKD), then every mark
/// (General Category Mn, Mc, Me), control and format character (Cc, Cf: bidi controls, zero-width joiners) that is
/// not white space removed,
/// "ς" made "σ" and "ß" made "ss". Twice, because NFKD can make capitals ("㎒" is "MHz") and lower case can make
/// marks ("İ" is "i" and U+0307). Then each run of white space is one space, and none leads or trails.
package enum SearchFolding {
    /// The folded form of `text`.
    package static func fold(_ text: some StringProtocol) -> String {
        foldedASCII(text) ?? foldedUnicode(text)
    }

    /// The folding by the Unicode steps, for any text.
    static func foldedUnicode(_ text: some StringProtocol) -> String {
        let folded = step(step(String(text)))
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in folded.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace {
                result.append(" ")
                pendingSpace = false
            }
            result.append(scalar)
        }
        return String(result)
    }

    /// The same folding for text of ASCII characters only, where lower case and NFKD change nothing but A–Z and no
    /// character is a mark or a format character: A–Z lowered, the controls that are not white space dropped, white
    /// space collapsed. Nil for any other text. Most captions, tags and names are ASCII, and the two Foundation passes
    /// over each were a twentieth of a rebuild after one change (BENCHMARKS.md, "Figures behind the code").
    static func foldedASCII(_ text: some StringProtocol) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            switch byte {
            case 0x80...: return nil
            case 0x09...0x0D, 0x20:
                pendingSpace = !bytes.isEmpty
                continue
            case 0x00...0x1F, 0x7F: continue
            case 0x41...0x5A:
                if pendingSpace { bytes.append(0x20) }
                pendingSpace = false
                bytes.append(byte + 0x20)
            default:
                if pendingSpace { bytes.append(0x20) }
                pendingSpace = false
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func step(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text.lowercased().decomposedStringWithCompatibilityMapping.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark, .surrogate: continue
            case .control where !scalar.properties.isWhitespace: continue
            case .format where !scalar.properties.isWhitespace: continue
            default: break
            }
            switch scalar {
            case "\u{3C2}": kept.append("\u{3C3}")
            case "\u{DF}": kept.append(contentsOf: "ss".unicodeScalars)
            default: kept.append(scalar)
            }
        }
        return String(kept)
    }
}
