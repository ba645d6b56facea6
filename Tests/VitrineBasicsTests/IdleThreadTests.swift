import Foundation
import Synchronization
import Testing

@testable import VitrineBasics

/// Work that may be thrown away runs on a thread of its own in the idle scheduling class, and takes the newest of
/// the values offered to it.
@Suite struct IdleThreadTests {
    @Test(arguments: [true, false])
    func theWorkRunsOnAThreadOfItsOwnInTheClassAskedFor(idle: Bool) async {
        let seen = Mutex<(idle: Bool, main: Bool)?>(nil)
        let done = DispatchSemaphore(value: 0)
        #expect(!IdleThread.isCallingThreadIdle)
        IdleThread.start(idle: idle) {
            seen.withLock { $0 = (IdleThread.isCallingThreadIdle, Thread.isMainThread) }
            done.signal()
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                done.wait()
                continuation.resume()
            }
        }
        #expect(seen.withLock { $0?.idle } == idle)
        #expect(seen.withLock { $0?.main } == false)
    }

    @Test func aTakeGetsTheNewestValueOfferedAndNilOnceTheRunEnded() {
        let values = NewestValue<Int>()
        values.offer(1)
        values.offer(2)
        #expect(values.take() == 2)
        values.offer(3)
        #expect(values.take() == 3)
        values.end()
        values.offer(4)
        #expect(values.take() == nil)
        #expect(values.hasEnded)
    }

    @Test func aWaitingTakeWakesForAnOfferAndForTheEnd() async {
        let values = NewestValue<Int>()
        let taken = Mutex<[Int?]>([])
        let finished = DispatchSemaphore(value: 0)
        IdleThread.start {
            taken.withLock { $0.append(values.take()) }
            taken.withLock { $0.append(values.take()) }
            finished.signal()
        }
        try? await Task.sleep(for: .milliseconds(50))
        values.offer(7)
        try? await Task.sleep(for: .milliseconds(50))
        values.end()
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                finished.wait()
                continuation.resume()
            }
        }
        #expect(taken.withLock { $0 } == [7, nil])
    }
}
