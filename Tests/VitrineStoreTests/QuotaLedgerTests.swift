import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineHTTP
@testable import VitrineStore

@Suite struct QuotaLedgerTests {
    let quota = RequestQuota(service: "Flickr", limit: 5, window: .seconds(3600))
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func request(key: String) -> FetchRequest {
        FetchRequest(url: "https://api.example/rest/?api_key=\(key)&page=1", secretQueryNames: ["api_key"])
    }

    @Test func countsUpToTheLimitThenSaysWhenTheOldestRequestLeavesTheWindow() async throws {
        let folder = try TemporaryFolder()
        let ledger = QuotaLedger(cache: CacheStore(root: folder.url))
        for minute in 0..<5 {
            #expect(await ledger.take(Self.request(key: "k1"), quota: quota, now: start + Double(minute * 60)) == nil)
        }
        let later = start + 10 * 60
        #expect(await ledger.take(Self.request(key: "k1"), quota: quota, now: later) == .seconds(50 * 60))
        // Refusing counts nothing: the same answer again.
        #expect(await ledger.take(Self.request(key: "k1"), quota: quota, now: later) == .seconds(50 * 60))
        // An hour after the first request, one more is allowed, and only one.
        #expect(await ledger.take(Self.request(key: "k1"), quota: quota, now: start + 3600) == nil)
        #expect(await ledger.take(Self.request(key: "k1"), quota: quota, now: start + 3600) == .seconds(60))
    }

    @Test func eachKeyHasItsOwnCountAndNoFileHoldsAKey() async throws {
        let folder = try TemporaryFolder()
        let ledger = QuotaLedger(cache: CacheStore(root: folder.url))
        for _ in 0..<5 { #expect(await ledger.take(Self.request(key: "secret-one"), quota: quota, now: start) == nil) }
        #expect(await ledger.take(Self.request(key: "secret-one"), quota: quota, now: start) != nil)
        #expect(await ledger.take(Self.request(key: "secret-two"), quota: quota, now: start) == nil)
        // A request without a key (Flickr's public feed) is not counted against any.
        #expect(await ledger.take(FetchRequest(url: "https://api.example/feed"), quota: quota, now: start) == nil)
        let files = try FileManager.default.contentsOfDirectory(atPath: ledger.folder.path)
        #expect(files.count == 2 && files.allSatisfy { $0.hasPrefix("flickr-") && $0.hasSuffix(".times") })
        for name in files {
            let text = try String(contentsOf: ledger.folder.appendingPathComponent(name), encoding: .utf8)
            #expect(!text.contains("secret") && !name.contains("secret"))
        }
    }

    @Test func damagedLinesAndTimesAheadOfTheClockAreReadSafely() async throws {
        let folder = try TemporaryFolder()
        let ledger = QuotaLedger(cache: CacheStore(root: folder.url))
        let file = try #require(ledger.file(for: Self.request(key: "k"), quota: quota))
        try FileManager.default.createDirectory(at: ledger.folder, withIntermediateDirectories: true)
        let now = Int64(start.timeIntervalSince1970 * 1000)
        // A line of garbage, a time an hour out of the window, three in it, one far ahead of the clock (set back
        // since), and a last line cut short: four count, so one more request is allowed.
        let lines = [
            "garbage", "\(now - 7_200_000)", "\(now - 10)", "\(now - 20)", "\(now - 30)", "\(now + 86_400_000)",
        ]
        try Data((lines.joined(separator: "\n") + "\n12").utf8).write(to: file)
        #expect(await ledger.take(Self.request(key: "k"), quota: quota, now: start) == nil)
        #expect(await ledger.take(Self.request(key: "k"), quota: quota, now: start) != nil)
    }

    @Test func concurrentTakersNeverGoPastTheLimit() async throws {
        let folder = try TemporaryFolder()
        let quota = RequestQuota(service: "Flickr", limit: 40, window: .seconds(3600))
        let root = folder.url
        let start = start
        let granted = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    // A ledger of its own per task, as separate runs have: the lock is the folder's.
                    let ledger = QuotaLedger(cache: CacheStore(root: root))
                    var granted = 0
                    for _ in 0..<10 where await ledger.take(Self.request(key: "k"), quota: quota, now: start) == nil {
                        granted += 1
                    }
                    return granted
                }
            }
            return await group.reduce(0, +)
        }
        #expect(granted == 40)
        let ledger = QuotaLedger(cache: CacheStore(root: folder.url))
        #expect(QuotaLedger.read(try #require(ledger.file(for: Self.request(key: "k"), quota: quota))).count == 40)
    }
}
