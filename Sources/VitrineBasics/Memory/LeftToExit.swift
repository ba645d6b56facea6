import Synchronization

/// What a process that is about to end keeps instead of freeing: a build's galleries, views and records at the end
/// of a command-line run. Freeing them object by object took 24 ms of a one-item rebuild at 1,000 items (BENCHMARKS.md,
/// "Figures behind the code"), and the process's exit gives their pages back at once, as clang's `-disable-free`
/// does for a compiler's last tables. Only for a process that ends after what it keeps: nothing kept is ever freed.
package enum LeftToExit {
    /// A kept value, never read again: no other thread can share it through here.
    private final class Kept: @unchecked Sendable {
        let value: Any
        let label: String
        init(_ value: Any, label: String) {
            self.value = value
            self.label = label
        }
    }

    private static let kept = Mutex<[Kept]>([])

    /// Keeps `value` until the process exits; `label` says what it is of (a build's output folder).
    package static func keep(_ value: Any, label: String) {
        kept.withLock { $0.append(Kept(value, label: label)) }
    }

    /// How many values labelled `label` are kept.
    package static func count(labelled label: String) -> Int { kept.withLock { $0.count { $0.label == label } } }
}
