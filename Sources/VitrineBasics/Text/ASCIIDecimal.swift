/// Whole numbers written in ASCII digits, read straight from bytes: the state files of a build hold thousands, and
/// a `String` for each was a visible part of reading them.
package enum ASCIIDecimal {
    /// A non-negative decimal number that fits an `Int64`; nil for anything else (empty, a sign, other bytes).
    package static func int64(_ digits: ArraySlice<UInt8>) -> Int64? {
        guard !digits.isEmpty, digits.count <= 19 else { return nil }
        var value: Int64 = 0
        for digit in digits {
            guard (0x30...0x39).contains(digit) else { return nil }
            let (times10, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowedAgain) = times10.addingReportingOverflow(Int64(digit - 0x30))
            guard !overflowed, !overflowedAgain else { return nil }
            value = sum
        }
        return value
    }
}
