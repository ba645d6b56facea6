import Foundation
import Testing
import VitrineTestSupport

@testable import VitrinePublish

@Suite struct OutputLockTests {
    @Test func aSecondRunFailsAtOnceOrWaitsForTheFirst() async throws {
        let folder = try TemporaryFolder()
        let output = folder.url.appendingPathComponent("out")
        var first: OutputLock? = try await OutputLock.acquire(output, wait: false)
        #expect(FileManager.default.fileExists(atPath: output.path), "the folder is made to be locked")
        await #expect(throws: OutputBusyError.self) { try await OutputLock.acquire(output, wait: false) }

        let (waiting, acquired) = (Handshake(), Handshake())
        let waiter = Task {
            let lock = try await OutputLock.acquire(output, wait: true) { folder in
                if folder == output.standardizedFileURL.path { waiting.signal() }
            }
            acquired.signal()
            return lock
        }
        #expect(await waiting.wait(), "the second run says it waits, naming the folder")
        #expect(!acquired.isSignalled, "it waits while the first run holds the lock")
        _ = first.take()
        let second = try await waiter.value
        await #expect(throws: OutputBusyError.self, "the waiter now holds the lock") {
            try await OutputLock.acquire(output, wait: false)
        }
        withExtendedLifetime(second) {}
    }

    @Test func waitingEndsWithCancellation() async throws {
        let folder = try TemporaryFolder()
        let held = try await OutputLock.acquire(folder.url, wait: false)
        let waiting = Handshake()
        let waiter = Task { try await OutputLock.acquire(folder.url, wait: true) { _ in waiting.signal() } }
        #expect(await waiting.wait())
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        withExtendedLifetime(held) {}
    }
}
