import Synchronization

/// What a process that is about to end keeps instead of freeing: a build's galleries, views and records at the end
/// of a command-line run. Freeing them object by object took 24 ms of a one-item rebuild at 1,000 items (BENCHMARKS.md,
/// "Figures behind the code"), and the process's exit gives their pages back at once, as clang's `-disable-free`
/// does for a compiler's last tables. Only for a process that ends after what it keeps: nothing kept is ever freed.
package enum LeftToExit {
    /// A kept value, never read again: no other thread can share it through here.
    private final class Kept: @unchecked Sendable {
        let value: Any
        init(_ value: Any) { self.value = value }
    }

    private static let kept = Mutex<[Kept]>([])

    /// Keeps `value` until the process exits.
    package static func keep(_ value: Any) {
        kept.withLock { $0.append(Kept(value)) }
    }

    /// How many values are kept.
    package static var count: Int { kept.withLock { $0.count } }
}
