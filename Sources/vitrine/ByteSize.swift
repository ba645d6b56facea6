import ArgumentParser
import Foundation

/// A size on the command line: bytes, or with a K, M or G suffix (powers of 1024).
struct ByteSize: ExpressibleByArgument, Sendable {
    var bytes: Int

    init(bytes: Int) { self.bytes = bytes }

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces).uppercased()
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = Substring(text)
        var unit = 1
        if let last = text.last, let multiplier = units[last] {
            unit = multiplier
            digits = digits.dropLast()
        }
        guard let value = Int(digits), value > 0, value <= (1 << 40) / unit else { return nil }
        bytes = value * unit
    }

    var defaultValueDescription: String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20)M" : "\(bytes)"
    }
}
