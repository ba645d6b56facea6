import Foundation
import Synchronization
import Testing
import VitrineTestSupport

@testable import VitrineBasics

/// Work that may be thrown away runs on a thread of its own in the idle scheduling class, and takes the newest of
/// the values offered to it.
@Suite struct IdleThreadTests {
    @Test(arguments: [true, false])
    func theWorkRunsOnAThreadOfItsOwnInTheClassAskedFor(idle: Bool) async {
        let seen = Mutex<(idle: Bool, main: Bool)?>(nil)
        let done = Handshake()
        #expect(!IdleThread.isCallingThreadIdle)
        IdleThread.start(idle: idle) {
            seen.withLock { $0 = (IdleThread.isCallingThreadIdle, Thread.isMainThread) }
            done.signal()
        }
        // An idle-class thread runs only when the cores have time to spare: on a loaded machine that can take a while.
        #expect(await done.wait(atMost: .seconds(600)), "the work had not run after 600 s")
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

    /// Handshakes, not sleeps, order the offer and the end after the takes they are for: a thread in the idle class
    /// can wait a minute for a processor on a busy machine (82 s once, beside two busy loops), so the thread here is
    /// of the normal class, which the test above covers. The pauses only make it likely that each take is already
    /// waiting when its wake-up comes; the outcome is the same if it is not.
    @Test func aWaitingTakeWakesForAnOfferAndForTheEnd() async {
        let values = NewestValue<Int>()
        let taken = Mutex<[Int?]>([])
        let (started, tookFirst, finished) = (Handshake(), Handshake(), Handshake())
        IdleThread.start(idle: false) {
            started.signal()
            taken.withLock { $0.append(values.take()) }
            tookFirst.signal()
            taken.withLock { $0.append(values.take()) }
            finished.signal()
        }
        #expect(await started.wait())
        try? await Task.sleep(for: .milliseconds(20))
        values.offer(7)
        #expect(await tookFirst.wait())
        try? await Task.sleep(for: .milliseconds(20))
        values.end()
        #expect(await finished.wait())
        #expect(taken.withLock { $0 } == [7, nil])
    }
}
