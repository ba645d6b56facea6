import Foundation
import Synchronization
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

        let announced = Mutex(false)
        let waiter = Task {
            try await OutputLock.acquire(output, wait: true) { folder in
                if folder == output.standardizedFileURL.path { announced.withLock { $0 = true } }
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(announced.withLock { $0 })
        first = nil
        let second = try await waiter.value
        withExtendedLifetime(second) {}
        #expect(first == nil)
    }

    @Test func waitingEndsWithCancellation() async throws {
        let folder = try TemporaryFolder()
        let held = try await OutputLock.acquire(folder.url, wait: false)
        let waiter = Task { try await OutputLock.acquire(folder.url, wait: true) }
        try await Task.sleep(for: .milliseconds(100))
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        withExtendedLifetime(held) {}
    }
}
