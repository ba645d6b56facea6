/// Lowercase hexadecimal, as the SHA-256 digests that name cache files, output images and pages' inputs are written:
/// the one reading of it that the records of a build share.
///
/// Its checks take concrete byte collections, not any `Sequence`: the records of a build run them on tens of
/// thousands of fields, and a generic function of another module runs unspecialized, a witness call per byte (a
/// fifth of a rebuild's CPU at 1,000 items: BENCHMARKS.md, "Figures behind the code").
package enum LowercaseHex {
    /// The value of one digit (`0`–`9`, `a`–`f`); nil for any other byte, uppercase included.
    package static func value(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        default: nil
        }
    }

    /// Whether `bytes` are lowercase hexadecimal digits only (true for none).
    package static func isDigits(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where value(byte) == nil { return false }
        return true
    }

    package static func isDigits(_ bytes: ArraySlice<UInt8>) -> Bool { bytes.withUnsafeBufferPointer(isDigits) }

    package static func isDigits(_ text: Substring) -> Bool {
        text.utf8.withContiguousStorageIfAvailable(isDigits) ?? isDigits(ArraySlice(text.utf8))
    }

    package static func isDigits(_ text: String) -> Bool { isDigits(text[...]) }

    /// Whether `bytes` are a SHA-256 as lowercase hexadecimal: 64 digits.
    package static func isSHA256(_ bytes: ArraySlice<UInt8>) -> Bool { bytes.count == 64 && isDigits(bytes) }

    package static func isSHA256(_ text: String) -> Bool { text.utf8.count == 64 && isDigits(text) }
}
