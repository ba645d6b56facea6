import Foundation

/// Work over thousands of files (a `stat` or a small read each) done in one contiguous part per processor core, at
/// most four, and in the calling task alone below a threshold, where starting tasks costs more than it saves.
package enum CoreSplit {
    /// The result of `body` for each part of `0..<count`, in the parts' order; the parts run as child tasks when
    /// `count` reaches `threshold`, so the caller waits by suspending, never by blocking a thread of Swift's pool.
    package static func mapParts<PartResult: Sendable>(
        of count: Int, threshold: Int, _ body: @escaping @Sendable (Range<Int>) -> PartResult
    ) async -> [PartResult] {
        let parts = count < threshold ? 1 : min(ProcessInfo.processInfo.activeProcessorCount, 4)
        guard parts > 1 else { return [body(0..<count)] }
        let size = (count + parts - 1) / parts
        return await withTaskGroup(of: (Int, PartResult).self) { group in
            for part in 0..<parts {
                let range = min(part * size, count)..<min((part + 1) * size, count)
                group.addTask { (part, body(range)) }
            }
            var results: [(Int, PartResult)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }
}
