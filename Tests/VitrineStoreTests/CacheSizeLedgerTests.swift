import Foundation
import Testing
import VitrineBasics
import VitrineTestSupport

@testable import VitrineHTTP
@testable import VitrineStore

/// The cache's size ledger: an upper bound of its size that pruning measures and every store adds to first.
@Suite struct CacheSizeLedgerTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func ledgerText(_ folder: TemporaryFolder) throws -> String {
        try String(contentsOf: folder.url.appendingPathComponent(CacheSizeLedger.fileName), encoding: .utf8)
    }

    @Test func theEstimateIsTheMeasuredSizePlusEveryAdditionSince() throws {
        let folder = try TemporaryFolder()
        CacheSizeLedger.replace(
            root: folder.url, measured: 1000, at: now, temporaryFolder: folder.url.appendingPathComponent("tmp"))
        let ledger = CacheSizeLedger(root: folder.url)
        ledger.add(10)
        ledger.add(0)
        ledger.add(20)
        // Another run sharing the cache appends to the same file.
        CacheSizeLedger(root: folder.url).add(5)
        #expect(!ledger.lostAnAddition)
        #expect(try ledgerText(folder) == "walked 1000 1800000000\n+10\n+20\n+5\n")
        let estimate = try #require(CacheSizeLedger.read(root: folder.url))
        #expect(estimate == .init(bytes: 1035, walkedAt: now, additions: 3, added: 35))
        #expect(CacheSizeLedger.shows(estimate, withinSize: 1035, now: now + 60))
        #expect(!CacheSizeLedger.shows(estimate, withinSize: 1034, now: now + 60))
    }

    @Test func aMissingDamagedOrCutLedgerIsNoEstimate() {
        for text in [
            "", "walked 1000 1800000000", "+10\nwalked 1000 1800000000\n", "walked 1000\n", "walked x 1800000000\n",
            "walked 1000 1800000000\n+10\n+2", "walked 1000 1800000000\n10\n", "walked 1000 1800000000\n+-3\n",
            "walked 1000 1800000000\n+99999999999999999999\n", "walked 9000000000000000000 0\n+900000000000000000\n",
            "walked 1000 1800000000 abc\n", "walked 1000 1800000000 \(String(repeating: "AB", count: 32))\n",
            "walked 1000 1800000000 \(String(repeating: "ab", count: 32)) x\n",
        ] {
            #expect(CacheSizeLedger.parse(Array(text.utf8)) == nil, "\(text)")
        }
        #expect(
            CacheSizeLedger.parse(Array("walked 0 0\n".utf8))
                == .init(bytes: 0, walkedAt: .init(timeIntervalSince1970: 0), additions: 0))
        #expect(!CacheSizeLedger.shows(nil, withinSize: .max, now: now))
    }

    @Test func aPruningLeftOverItsSizeByWhatABuildUsedIsNotRepeatedForTheSameUses() throws {
        let folder = try TemporaryFolder()
        let temporary = folder.url.appendingPathComponent("tmp")
        let uses = String(repeating: "ab", count: 32)
        CacheSizeLedger.replace(root: folder.url, measured: 2000, at: now, heldFor: uses, temporaryFolder: temporary)
        #expect(try ledgerText(folder) == "walked 2000 1800000000 \(uses)\n")
        CacheSizeLedger(root: folder.url).add(90)
        let estimate = try #require(CacheSizeLedger.read(root: folder.url))
        #expect(estimate == .init(bytes: 2090, walkedAt: now, additions: 1, added: 90, heldFor: uses))
        // Within 1,000 bytes a build's pruning leaves 100 of room, more than the 90 stored since: nothing to remove.
        #expect(CacheSizeLedger.showsNothingToRemove(estimate, forUses: uses, maximumBytes: 1000, now: now + 60))
        // Other uses, more stored since than the room (80 within 800), a week later or earlier than the walk: walk.
        let other = String(repeating: "cd", count: 32)
        #expect(!CacheSizeLedger.showsNothingToRemove(estimate, forUses: other, maximumBytes: 1000, now: now + 60))
        #expect(!CacheSizeLedger.showsNothingToRemove(estimate, forUses: uses, maximumBytes: 800, now: now + 60))
        #expect(
            !CacheSizeLedger.showsNothingToRemove(
                estimate, forUses: uses, maximumBytes: 1000, now: now + CacheSizeLedger.trustedFor))
        #expect(!CacheSizeLedger.showsNothingToRemove(estimate, forUses: uses, maximumBytes: 1000, now: now - 1))
        var many = estimate
        many.additions = CacheSizeLedger.mostAdditions + 1
        #expect(!CacheSizeLedger.showsNothingToRemove(many, forUses: uses, maximumBytes: 1000, now: now + 60))
        // A pruning that left no build's uses over the size, or something that is no digest: no uses held.
        CacheSizeLedger.replace(root: folder.url, measured: 900, at: now, temporaryFolder: temporary)
        #expect(CacheSizeLedger.read(root: folder.url)?.heldFor == nil)
        #expect(
            !CacheSizeLedger.showsNothingToRemove(
                CacheSizeLedger.read(root: folder.url), forUses: uses, maximumBytes: 800, now: now + 60))
        CacheSizeLedger.replace(
            root: folder.url, measured: 900, at: now, heldFor: "uses\n+0", temporaryFolder: temporary)
        #expect(try ledgerText(folder) == "walked 900 1800000000\n")
    }

    @Test func anOldLedgerOneFromLaterOrOneOfTooManyAdditionsIsNotTrusted() {
        let estimate = CacheSizeLedger.Estimate(bytes: 10, walkedAt: now, additions: 1)
        #expect(CacheSizeLedger.shows(estimate, withinSize: 10, now: now + CacheSizeLedger.trustedFor - 1))
        #expect(!CacheSizeLedger.shows(estimate, withinSize: 10, now: now + CacheSizeLedger.trustedFor))
        #expect(!CacheSizeLedger.shows(estimate, withinSize: 10, now: now - 1))
        var many = estimate
        many.additions = CacheSizeLedger.mostAdditions + 1
        #expect(!CacheSizeLedger.shows(many, withinSize: 10, now: now))
    }

    @Test func aLinkOrAFifoInTheLedgersPlaceIsNeitherFollowedNorTrusted() throws {
        let folder = try TemporaryFolder()
        let outside = try TemporaryFolder()
        let target = outside.url.appendingPathComponent("elsewhere")
        try "walked 1 1800000000\n".write(to: target, atomically: false, encoding: .utf8)
        let place = folder.url.appendingPathComponent(CacheSizeLedger.fileName)
        try FileManager.default.createSymbolicLink(at: place, withDestinationURL: target)
        let ledger = CacheSizeLedger(root: folder.url)
        ledger.add(7)
        #expect(ledger.lostAnAddition)
        #expect(try String(contentsOf: target, encoding: .utf8) == "walked 1 1800000000\n")
        #expect(CacheSizeLedger.read(root: folder.url) == nil)
        try FileManager.default.removeItem(at: place)
        #expect(mkfifo(place.path, 0o644) == 0)
        let onAFifo = CacheSizeLedger(root: folder.url)
        onAFifo.add(7)
        #expect(onAFifo.lostAnAddition)
        #expect(CacheSizeLedger.read(root: folder.url) == nil)
    }

    @Test func everyStoreIsAddedAndPruningReplacesTheLedgerWithWhatItMeasured() throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        _ = try cache.storeImage(
            [0xFF, 0xD8, 0xFF] + Array(repeating: 1, count: 5000), format: .jpeg, from: "https://a/1")
        _ = try cache.storeImage(
            [0xFF, 0xD8, 0xFF] + Array(repeating: 2, count: 3000), format: .jpeg, from: "https://a/2")
        // The same bytes from another URL add only their index entry.
        _ = try cache.storeImage(
            [0xFF, 0xD8, 0xFF] + Array(repeating: 2, count: 3000), format: .jpeg, from: "https://a/3")
        let request = FetchRequest(url: "http://127.0.0.1:1/api/?q=x")
        try cache.store(
            FetchResponse(status: 200, body: Array(#"{"hits":[]}"#.utf8), effectiveURL: request.url), for: request,
            at: now)
        let stored = CacheInventory.read(root: folder.url, now: now, maximumAge: 3600).totalBytes
        // Without a measure, the additions alone are no estimate: the cache has to be walked once.
        #expect(CacheSizeLedger.read(root: folder.url) == nil)
        let additions = try ledgerText(folder).split(separator: "\n").compactMap { Int64($0.dropFirst()) }
        #expect(additions.count == 6 && additions.reduce(0, +) == stored)
        let outcome = CachePruner(root: folder.url).prune(
            maximumBytes: stored, used: [], now: now, maximumAge: 3600)
        #expect(outcome.entriesRemoved == 0)
        #expect(CacheSizeLedger.read(root: folder.url) == .init(bytes: stored, walkedAt: now, additions: 0))
        let smaller = CachePruner(root: folder.url).prune(
            maximumBytes: stored - 100, used: [], now: now + 1, maximumAge: 3600)
        #expect(smaller.entriesRemoved > 0)
        let after = CacheInventory.read(root: folder.url, now: now, maximumAge: 3600).totalBytes
        #expect(CacheSizeLedger.read(root: folder.url) == .init(bytes: after, walkedAt: now + 1, additions: 0))
    }
}
