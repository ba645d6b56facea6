/// Lowercase hexadecimal, as the SHA-256 digests that name cache files, output images and pages' inputs are written:
/// the one reading of it that the records of a build share.
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
    package static func isDigits(_ bytes: some Sequence<UInt8>) -> Bool { bytes.allSatisfy { value($0) != nil } }

    /// Whether `bytes` are a SHA-256 as lowercase hexadecimal: 64 digits.
    package static func isSHA256<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        bytes.count == 64 && isDigits(bytes)
    }
}
