/// Whole numbers written in ASCII digits, read straight from bytes: the state files of a build hold thousands, and
/// a `String` for each was a visible part of reading them.
package enum ASCIIDecimal {
    /// Appends the decimal digits of `value` to `bytes`, with a minus sign before a negative one: the bytes of
    /// `"\(value)"`, without making a string for each number of a record of thousands.
    package static func append(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(0x2D) }
        append(value.magnitude, to: &bytes)
    }

    /// Appends the decimal digits of `value` to `bytes`.
    package static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = value
            var count = 0
            repeat {
                let (quotient, remainder) = rest.quotientAndRemainder(dividingBy: 10)
                digits[count] = 0x30 + UInt8(remainder)
                rest = quotient
                count += 1
            } while rest > 0
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(digits[index]) }
        }
    }

    /// A non-negative decimal number that fits an `Int64`; nil for anything else (empty, a sign, other bytes).
    package static func int64(_ digits: ArraySlice<UInt8>) -> Int64? {
        digits.withUnsafeBufferPointer { digits in
            var index = digits.startIndex
            guard let value = int64(in: digits, at: &index), index == digits.endIndex else { return nil }
            return value
        }
    }

    /// The number whose digits start at `index` in `bytes` and run to the end or to the first byte that is not a
    /// digit, where `index` is left; nil, with `index` anywhere, when there is no digit there or the number does not
    /// fit an `Int64`.
    package static func int64(in bytes: UnsafeBufferPointer<UInt8>, at index: inout Int) -> Int64? {
        let start = index
        var value: Int64 = 0
        while index < bytes.endIndex, case let digit = bytes[index] &- 0x30, digit <= 9 {
            guard index - start < 19 else { return nil }
            let (times10, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowedAgain) = times10.addingReportingOverflow(Int64(digit))
            guard !overflowed, !overflowedAgain else { return nil }
            value = sum
            index += 1
        }
        return index == start ? nil : value
    }
}
