import Foundation

/// Items made on child tasks, on every core, a few ahead of the one the caller waits for, and handed back to the
/// caller one by one in the items' order: how a build renders its pages on several cores while one task, the only
/// one that may, writes them. The caller waits by suspending, never by blocking a thread of Swift's pool.
package enum InOrderWork {
    /// How many items are made at once at most: one per processor core, at most four.
    package static var cores: Int { min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 4) }

    /// How many items may be made, or being made, and not yet handed back: two per core, so that each core has the
    /// next item to make while the caller takes the one before.
    package static var window: Int { 2 * cores }

    /// Takes the items from `next` in order (on the calling task, until it gives nil), makes each with `make` on a
    /// child task, and calls `consume` with each result in the items' order, on the calling task; at most `window`
    /// items are taken and not yet consumed. An error of `consume` (such as the cancellation it checks) stops the
    /// work: no item is taken after it, the child tasks are cancelled and awaited, and the error is thrown. `make`
    /// should look at `Task.isCancelled` and skip its work when it is set.
    package static func run<Item: Sendable, Made: Sendable>(
        window: Int = InOrderWork.window, next: () -> Item?, make: @escaping @Sendable (Item) -> Made,
        consume: (Made) throws -> Void
    ) async throws {
        let window = max(window, 1)
        try await withThrowingTaskGroup(of: (Int, Made).self) { group in
            var taken = 0
            var consumed = 0
            var made: [Int: Made] = [:]
            var exhausted = false
            func take() -> Item? {
                guard !exhausted, let item = next() else {
                    exhausted = true
                    return nil
                }
                return item
            }
            while taken < window, let item = take() {
                group.addTask { [taken] in (taken, make(item)) }
                taken += 1
            }
            while let (index, result) = try await group.next() {
                made[index] = result
                while let result = made.removeValue(forKey: consumed) {
                    consumed += 1
                    try consume(result)
                    if let item = take() {
                        group.addTask { [taken] in (taken, make(item)) }
                        taken += 1
                    }
                }
            }
        }
    }
}
