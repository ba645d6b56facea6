import Foundation
import Synchronization

/// The cache files one run read or wrote (paths relative to the cache root), and the keys of the output folders
/// whose records it kept (`builds/ab/DIGEST`), gathered as the run goes so that the pruning after its build never
/// removes what it used. Shared by every copy of a ``CacheStore``; lookups record their paths in bulk.
package final class CacheUsage: Sendable {
    private let paths = Mutex(Set<String>())

    package init() {}

    /// Records that the run used the files at `relativePaths`.
    package func record(_ relativePaths: some Sequence<String>) {
        paths.withLock { used in
            for path in relativePaths { used.insert(path) }
        }
    }

    /// Records that the run used the file at `relativePath`.
    package func record(_ relativePath: String) {
        paths.withLock { _ = $0.insert(relativePath) }
    }

    /// Every path recorded so far.
    package var used: Set<String> { paths.withLock { $0 } }
}
