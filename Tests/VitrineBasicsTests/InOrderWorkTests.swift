import Foundation
import Synchronization
import Testing

@testable import VitrineBasics

@Suite struct InOrderWorkTests {
    /// What the work did, as the test sees it.
    struct Trace {
        var taken = 0
        var consumed: [Int] = []
        var mostInFlight = 0
        var started = 0
        var finished = 0
    }

    /// Runs the work over `0..<count`, recording what was taken, made and consumed; `consume` may throw.
    func run(
        _ count: Int, window: Int, make: @escaping @Sendable (Int) -> Int = { $0 },
        consume: @escaping (Int) throws -> Void = { _ in }
    ) async throws -> Trace {
        let trace = Mutex(Trace())
        var items = (0..<count).makeIterator()
        try await InOrderWork.run(
            window: window,
            next: { () -> Int? in
                guard let item = items.next() else { return nil }
                trace.withLock {
                    $0.taken += 1; $0.mostInFlight = max($0.mostInFlight, $0.taken - $0.consumed.count)
                }
                return item
            },
            make: { (item: Int) -> Int in
                trace.withLock { $0.started += 1 }
                defer { trace.withLock { $0.finished += 1 } }
                return make(item)
            },
            consume: { (made: Int) in
                trace.withLock { $0.consumed.append(made) }
                try consume(made)
            })
        return trace.withLock { $0 }
    }

    @Test(arguments: [0, 1, 3, 500])
    func everyItemIsConsumedOnceInOrderWithAtMostTheWindowInFlight(count: Int) async throws {
        // Later items are made faster, so that they tend to be done first.
        let trace = try await run(count, window: 3) { item in
            var sum = 0
            for step in 0..<((count - item) * 200) { sum &+= step }
            return item + (sum == -1 ? 1 : 0)
        }
        #expect(trace.consumed == Array(0..<count))
        #expect(trace.mostInFlight <= 3)
        #expect(trace.started == count && trace.finished == count)
    }

    /// Item 0 is made only once item 1 is being made: with the items made in turn it would wait in vain.
    @Test(.enabled(if: ProcessInfo.processInfo.activeProcessorCount > 1))
    func itemsAreMadeAtOnce() async throws {
        let secondStarted = DispatchSemaphore(value: 0)
        let sawTheSecond = Mutex(false)
        _ = try await run(2, window: 2) { item in
            if item == 1 {
                secondStarted.signal()
            } else {
                // The limit only keeps a broken implementation from hanging the suite; it is not the assertion.
                let came = secondStarted.wait(timeout: .now() + 120) == .success
                sawTheSecond.withLock { $0 = came }
            }
            return item
        }
        #expect(sawTheSecond.withLock { $0 })
    }

    struct Stop: Error {}

    @Test func theFirstErrorInOrderStopsTheWorkAndEveryMadeItemIsAwaited() async throws {
        let trace = Mutex(Trace())
        await #expect(throws: Stop.self) {
            try await InOrderWork.run(
                window: 4,
                next: { () -> Int? in
                    trace.withLock { trace in
                        guard trace.taken < 100 else { return nil }
                        trace.taken += 1
                        return trace.taken - 1
                    }
                },
                make: { (item: Int) -> Int in
                    trace.withLock { $0.started += 1 }
                    defer { trace.withLock { $0.finished += 1 } }
                    return item
                },
                consume: { (item: Int) in
                    trace.withLock { $0.consumed.append(item) }
                    if item == 10 { throw Stop() }
                })
        }
        let seen = trace.withLock { $0 }
        #expect(seen.consumed == Array(0...10))
        // No item is taken past the window after the failing one, and none is still being made when `run` throws.
        #expect(seen.taken <= 11 + 4)
        #expect(seen.started == seen.finished)
    }
}
