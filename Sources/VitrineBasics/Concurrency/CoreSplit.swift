import Foundation

/// Work over thousands of files (a `stat` or a small read each) done in one contiguous part per processor core, at
/// most four, and on the calling thread alone below a threshold, where starting threads costs more than it saves.
package enum CoreSplit {
    /// Calls `body` with the range of each part of `0..<count`, the parts concurrently when `count` reaches
    /// `threshold`; returns when all are done.
    package static func forEachPart(of count: Int, threshold: Int, _ body: @Sendable (Range<Int>) -> Void) {
        let parts = count < threshold ? 1 : min(ProcessInfo.processInfo.activeProcessorCount, 4)
        guard parts > 1 else { return body(0..<count) }
        let size = (count + parts - 1) / parts
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            body(min(part * size, count)..<min((part + 1) * size, count))
        }
    }
}
