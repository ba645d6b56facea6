import Foundation

/// The words a source attaches to a picture (Pixabay's and Flickr's `tags`), made into one form so that a tag is the
/// same tag however the API spelled it: the one place that says what a tag is.
///
/// A tag is normalised as follows: Unicode NFC; lower case by Swift's `lowercased()` (Unicode's default case
/// mapping, the same on every platform and in every locale), then NFC again; white space of any kind trimmed and
/// each inner run made one space; control and format characters (General Category Cc and Cf: bidi controls such as
/// U+202E, zero-width joiners, soft hyphens) and noncharacters removed; then cut to `maximumCharacters` characters at
/// a character boundary (and to `maximumScalars` scalars, so one character with thousands of combining marks stays
/// small). Lower case, not full case folding: "STRASSE" is "strasse" and "Straße" is "straße", two tags, as the
/// sources themselves keep them apart; full folding would merge them and make "ß" depend on the folding table.
/// The normalised form is also what pages show: Pixabay and Flickr send lower-case tags already.
package enum PictureTags {
    /// The longest tag, in characters. Pixabay's and Flickr's tags are words and short phrases (a few to 30
    /// characters); 100 keeps every real one whole while a hostile 10,000-character tag cannot make a page heavy.
    package static let maximumCharacters = 100
    /// The most Unicode scalars a tag keeps, whatever its characters: four per character on average.
    package static let maximumScalars = 400
    /// The most tags one picture keeps, the first ones the source gives. Pixabay gives 3 to 10; Flickr allows 75,
    /// whose first ones are the author's own. 20 bounds the tag pages a gallery can have (items × variants × 20).
    package static let maximumPerPicture = 20

    /// The normalised form of `raw`, or nil when nothing is left of it.
    package static func normalise(_ raw: some StringProtocol) -> String? {
        if let ascii = normalisePrintableASCII(raw) { return ascii.isEmpty ? nil : ascii }
        return normaliseText(raw)
    }

    /// ``normalise(_:)`` of a tag of printable ASCII alone, the usual one, on its bytes: canonical composition
    /// changes none of them and the only white space is the space, so what is left is lower case, single spaces,
    /// none at the ends, and the first ``maximumCharacters``. Nil when `raw` has any other character. (The general
    /// way took a tenth of decoding a page of Pixabay's hits: BENCHMARKS.md, "Figures behind the code".)
    static func normalisePrintableASCII(_ raw: some StringProtocol) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(raw.utf8.count, maximumCharacters))
        var pendingSpace = false
        for byte in raw.utf8 {
            guard byte >= 0x20 && byte < 0x7F else { return nil }
            if byte == 0x20 {
                pendingSpace = !bytes.isEmpty
                continue
            }
            if bytes.count < maximumCharacters {
                if pendingSpace {
                    bytes.append(0x20)
                    pendingSpace = false
                }
                if bytes.count < maximumCharacters {
                    bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
                }
            }
        }
        while bytes.last == 0x20 { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``normalise(_:)`` of any text.
    static func normaliseText(_ raw: some StringProtocol) -> String? {
        // The raw text is cut before the work below, so that a megabyte of tag costs no more than a long tag.
        let head = String(String.UnicodeScalarView(String(raw).unicodeScalars.prefix(maximumScalars * 4)))
        var kept = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in head.precomposedStringWithCanonicalMapping.lowercased().unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !kept.isEmpty
                continue
            }
            switch scalar.properties.generalCategory {
            case .control, .format, .surrogate: continue
            default: break
            }
            if scalar.properties.isNoncharacterCodePoint { continue }
            if pendingSpace {
                kept.append(" ")
                pendingSpace = false
            }
            kept.append(scalar)
        }
        let normal = String(kept).precomposedStringWithCanonicalMapping
        var cut = ""
        var characters = 0
        var scalars = 0
        for character in normal {
            let size = character.unicodeScalars.count
            guard characters < maximumCharacters, scalars + size <= maximumScalars else {
                if characters == 0 {
                    cut.unicodeScalars.append(contentsOf: character.unicodeScalars.prefix(maximumScalars))
                }
                break
            }
            cut.append(character)
            characters += 1
            scalars += size
        }
        while cut.last == " " { cut.removeLast() }
        return cut.isEmpty ? nil : cut
    }

    /// The normalised tags of `raws`, in order: empty ones and repeats dropped, at most `maximumPerPicture`.
    package static func list(_ raws: some Sequence<some StringProtocol>) -> [String] {
        var seen = Set<String>()
        var tags: [String] = []
        for raw in raws {
            guard tags.count < maximumPerPicture else { break }
            if let tag = normalise(raw), seen.insert(tag).inserted { tags.append(tag) }
        }
        return tags
    }

    /// Pixabay's `tags`: a comma-separated list ("port, building, hamburg").
    package static func pixabay(_ field: String?) -> [String] {
        list((field ?? "").split(separator: ",", omittingEmptySubsequences: true).prefix(maximumPerPicture * 4))
    }

    /// Flickr's `tags` extra and its feed's `tags`: space-separated words (a multi-word tag comes joined up).
    package static func flickr(_ field: String?) -> [String] {
        list((field ?? "").split(whereSeparator: \.isWhitespace).prefix(maximumPerPicture * 4))
    }
}

extension SourceEntry {
    /// The picture's tags; none for a missing one.
    package var tags: [String] {
        if case .found(_, _, _, _, _, _, _, let tags) = self { tags } else { [] }
    }
}
