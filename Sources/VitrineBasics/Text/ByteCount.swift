import Foundation

/// A number of bytes as people read it: `812 bytes`, `3.4 KiB`, `120.0 MiB`, `1.2 GiB` (powers of 1024, as the K, M
/// and G of size flags are).
package enum ByteCount {
    package static func text(_ bytes: Int64) -> String {
        let units: [(String, Double)] = [("GiB", 1_073_741_824), ("MiB", 1_048_576), ("KiB", 1024)]
        for (name, size) in units where Double(bytes) >= size {
            return "\(String(format: "%.1f", Double(bytes) / size)) \(name)"
        }
        return "\(bytes) byte\(bytes == 1 ? "" : "s")"
    }
}
