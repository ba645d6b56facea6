import Foundation
import SampleAPI
import Synchronization
import Testing
import VitrineBasics
import VitrineTestSupport

@testable import VitrineHTTP
@testable import VitrineStore

@Suite struct CacheTests {
    let request = FetchRequest(url: "http://127.0.0.1:1/api/?key=TOPSECRET42&q=Hamburg", secretQueryNames: ["key"])

    @Test func keepsResponsesWithoutTheKeyInNameOrContent() throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        try cache.store(
            FetchResponse(status: 200, body: Array("{}".utf8), effectiveURL: request.url), for: request,
            at: Date(timeIntervalSince1970: 5))
        let stored = try #require(cache.storedResponse(for: request))
        #expect(stored.body == Array("{}".utf8) && stored.fetchedAt == Date(timeIntervalSince1970: 5))
        let files = FileManager.default.enumerator(atPath: folder.url.path)!.allObjects as! [String]
        for file in files {
            #expect(!file.contains("TOPSECRET42"))
            let contents = FileManager.default.contents(atPath: folder.url.appendingPathComponent(file).path) ?? Data()
            #expect(!String(decoding: contents, as: UTF8.self).contains("TOPSECRET42"))
        }
    }

    @Test func storesImagesByContentAndRemembersTheirURLs() throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 1, 2, 3]
        let first = try cache.storeImage(bytes, format: .jpeg, from: "https://a/1.jpg")
        let second = try cache.storeImage(bytes, format: .jpeg, from: "https://b/2.jpg")
        #expect(first == second)
        #expect(cache.imageRecord(for: "https://a/1.jpg") == first)
        #expect(cache.imageRecord(for: "https://c/3.jpg") == nil)
        #expect(try Data(contentsOf: cache.imageFile(for: first)) == Data(bytes))
        try FileManager.default.removeItem(at: cache.imageFile(for: first))
        #expect(cache.imageRecord(for: "https://a/1.jpg") == nil)
    }

    @Test func theURLIndexReadsWhatEarlierVersionsWroteAndRefusesWhatCannotNameACacheFile() throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        let stored = try cache.storeImage([0xFF, 0xD8, 0xFF, 9], format: .jpeg, from: "https://a/9.jpg")
        let urls = folder.url.appendingPathComponent("urls")
        let index = try #require(FileManager.default.subpaths(atPath: urls.path)?.first { $0.hasSuffix(".json") })
        let written = try String(contentsOf: urls.appendingPathComponent(index), encoding: .utf8)
        #expect(
            written.hasPrefix(
                "{\"byteCount\":4,\"format\":\"jpeg\",\"oriented\":true,\"sha256\":\"\(stored.sha256)\",\"stamp\":\""))
        let sha = stored.sha256
        for (text, readable) in [
            ("{\n  \"byteCount\" : 4,\n  \"format\" : \"jpeg\",\n  \"sha256\" : \"\(sha)\"\n}", true),
            (
                "{\"byteCount\":4,\"format\":\"jpeg\",\"sha256\":\"\(sha)\",\"width\":1,\"height\":1,\"extra\":[1]}",
                true
            ),
            ("{\"byteCount\":4,\"format\":\"jpeg\",\"sha256\":\"../../../etc/passwd\"}", false),
            ("{\"byteCount\":-1,\"format\":\"jpeg\",\"sha256\":\"\(sha)\"}", false),
            ("{\"byteCount\":4,\"format\":\"tiff\",\"sha256\":\"\(sha)\"}", false),
            ("{\"byteCount\":4,\"format\":\"jpeg\"}", false), ("{\"byteCount\":4,", false), ("[]", false),
        ] {
            try Data(text.utf8).write(to: urls.appendingPathComponent(index))
            #expect((cache.imageRecord(for: "https://a/9.jpg")?.sha256 == sha) == readable, "\(text)")
        }
    }

    /// An entry written before JPEG sizes had their EXIF orientation applied holds the stored size; the lookup reads
    /// the size again from the cached bytes, once, and writes the entry back as the current version writes it.
    @Test func anEntryOfAnEarlierVersionHasItsJPEGSizeReadAgainWithItsOrientation() throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        let square = [UInt8](repeating: 0, count: 2)
        let plain = jpegFrame(width: 640, height: 427) + square
        let turned = JPEGOrientation.insert(6, into: plain)
        let stored = try cache.storeImage(turned, format: .jpeg, from: "https://a/turned.jpg")
        #expect(stored.width == 427 && stored.height == 640)
        let urls = folder.url.appendingPathComponent("urls")
        let index = try #require(FileManager.default.subpaths(atPath: urls.path)?.first { $0.hasSuffix(".json") })
        let entry = urls.appendingPathComponent(index)
        let earlier =
            "{\"byteCount\":\(turned.count),\"format\":\"jpeg\",\"height\":427,\"sha256\":\"\(stored.sha256)\",\"width\":640}"
        try Data(earlier.utf8).write(to: entry)
        let read = try #require(cache.imageRecord(for: "https://a/turned.jpg"))
        #expect(read.width == 427 && read.height == 640)
        let rewritten = try String(contentsOf: entry, encoding: .utf8)
        #expect(rewritten.contains("\"oriented\":true") && rewritten.contains("\"width\":427"))
    }

    /// The smallest JPEG header ImageDimensions reads a size from: SOI and a baseline start-of-frame segment.
    func jpegFrame(width: Int, height: Int) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xC0, 0, 11, 8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8)]
            + [UInt8(width & 0xFF), 1, 1, 0x11, 0]
    }

    @Test func followsTheDefaultLocationRules() {
        #expect(
            CacheStore.defaultRoot(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"]).path
                == "/x/cache/vitrine")
        #expect(CacheStore.defaultRoot(environment: ["HOME": "/home/u"]).path == "/home/u/.cache/vitrine")
        #expect(
            CacheStore.defaultRoot(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/u"]).path
                == "/home/u/.cache/vitrine")
    }

    @Test func servesFreshResponsesWithoutAskingTheNetwork() async throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        let fetcher = FakeFetcher { request in
            .success(FetchResponse(status: 200, body: Array("{\"n\":1}".utf8), effectiveURL: request.url))
        }
        let clock = Mutex(Date(timeIntervalSince1970: 1_000_000))
        let now: @Sendable () -> Date = { clock.withLock { $0 } }
        let client = CachedAPIClient(fetcher: fetcher, cache: cache, policy: CachePolicy(), now: now)
        _ = try await client.load(request)
        let second = try await client.load(request)
        #expect(second.fromCache && fetcher.requests.count == 1)

        clock.withLock { $0 += 24 * 60 * 60 + 1 }
        let stale = try await CachedAPIClient(fetcher: fetcher, cache: cache, policy: CachePolicy(), now: now).load(
            request)
        #expect(!stale.fromCache && fetcher.requests.count == 2)

        let refreshed = try await CachedAPIClient(
            fetcher: fetcher, cache: cache, policy: CachePolicy(refresh: true), now: now
        ).load(request)
        #expect(!refreshed.fromCache && fetcher.requests.count == 3)

        clock.withLock { $0 += 100 * 24 * 60 * 60 }
        let offline = try await CachedAPIClient(
            fetcher: fetcher, cache: cache, policy: CachePolicy(offline: true), now: now
        ).load(request)
        #expect(offline.fromCache && fetcher.requests.count == 3)
    }

    @Test func onlyAnswersThatDecodeAreKeptAndACopyThatDoesNotIsAskedAgain() async throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        let body = Mutex("{\"stat\":\"fail\",\"code\":100}")
        let fetcher = FakeFetcher { request in
            .success(FetchResponse(status: 200, body: Array(body.withLock { $0 }.utf8), effectiveURL: request.url))
        }
        struct Rejected: Error {}
        let decode = { (response: APIResponse) throws -> String in
            let text = String(decoding: response.body, as: UTF8.self)
            guard text.contains("\"ok\"") else { throw Rejected() }
            return text
        }
        let client = CachedAPIClient(fetcher: fetcher, cache: cache, policy: CachePolicy(), now: Date.init)
        await #expect(throws: Rejected.self) { try await client.load(request, decode: decode) }
        #expect(cache.storedResponse(for: request) == nil, "a rejection sent with 200 is not an answer")
        body.withLock { $0 = "{\"stat\":\"ok\"}" }
        #expect(try await client.load(request, decode: decode).contains("ok"))
        #expect(fetcher.requests.count == 2 && cache.storedResponse(for: request) != nil)

        // A copy that an earlier version kept without decoding it is asked for again, not served.
        try cache.store(
            FetchResponse(status: 200, body: Array("<html>maintenance</html>".utf8), effectiveURL: request.url),
            for: request, at: Date())
        #expect(try await client.load(request, decode: decode).contains("ok"))
        #expect(fetcher.requests.count == 3)
    }

    @Test func answersAreFiledByADigestOfTheKeyNeverTheKey() {
        let cache = CacheStore(root: URL(fileURLWithPath: "/c"))
        func request(key: String) -> FetchRequest {
            FetchRequest(url: "https://api.example/?q=x&key=\(key)", secretQueryNames: ["key"])
        }
        let first = cache.responsePaths(for: request(key: "key-one-1234"))
        #expect(first != cache.responsePaths(for: request(key: "key-two-5678")))
        #expect(first == cache.responsePaths(for: request(key: "key-one-1234")))
        #expect(
            !first.record.contains("key-one") && request(key: "key-one-1234").publicURL == "https://api.example/?q=x")
        let authorized = FetchRequest(url: "https://api.example/", headers: ["Authorization": "Client-ID a"])
        #expect(
            cache.responsePaths(for: authorized)
                != cache.responsePaths(
                    for: FetchRequest(url: "https://api.example/", headers: ["Authorization": "Client-ID b"])))
    }

    @Test func offlineWithNothingCachedFailsClearly() async throws {
        let folder = try TemporaryFolder()
        let fetcher = FakeFetcher { _ in .failure(.cancelled) }
        let client = CachedAPIClient(
            fetcher: fetcher, cache: CacheStore(root: folder.url), policy: CachePolicy(offline: true), now: Date.init)
        await #expect(throws: NothingCachedError.self) { try await client.load(request) }
        #expect(fetcher.requests.isEmpty)
    }

    @Test func neverCachesErrorResponses() async throws {
        let folder = try TemporaryFolder()
        let fetcher = FakeFetcher { request in
            .success(FetchResponse(status: 500, body: Array("down".utf8), effectiveURL: request.url))
        }
        let client = CachedAPIClient(
            fetcher: fetcher, cache: CacheStore(root: folder.url), policy: CachePolicy(), now: Date.init)
        _ = try await client.load(request)
        _ = try await client.load(request)
        #expect(fetcher.requests.count == 2)
    }
}

@Suite struct StaleFallbackTests {
    let request = FetchRequest(url: "http://127.0.0.1:1/api/?q=Hamburg")

    func primedCache(in folder: TemporaryFolder) throws -> CacheStore {
        let cache = CacheStore(root: folder.url)
        try cache.store(
            FetchResponse(status: 200, body: Array("{\"old\":1}".utf8), effectiveURL: request.url), for: request,
            at: Date(timeIntervalSince1970: 1_000))
        return cache
    }

    @Test(arguments: [503, 429])
    func serverErrorsFallBackToTheOlderCopy(status: Int) async throws {
        let folder = try TemporaryFolder()
        let cache = try primedCache(in: folder)
        let fetcher = FakeFetcher { request in
            .success(FetchResponse(status: status, body: [], effectiveURL: request.url))
        }
        let client = CachedAPIClient(fetcher: fetcher, cache: cache, policy: CachePolicy(), now: Date.init)
        let response = try await client.load(request)
        #expect(response.stale && response.fromCache && response.bodyText == "{\"old\":1}")
        #expect(client.counters.staleFallbacks == 1 && client.counters.staleSince == Date(timeIntervalSince1970: 1_000))
    }

    @Test func networkFailuresFallBackToo() async throws {
        let folder = try TemporaryFolder()
        let cache = try primedCache(in: folder)
        let fetcher = FakeFetcher { _ in .failure(.transport(url: "u", reason: "Connection refused")) }
        let response = try await CachedAPIClient(fetcher: fetcher, cache: cache, policy: CachePolicy(), now: Date.init)
            .load(request)
        #expect(response.stale)
    }

    @Test func clientErrorsAreNotHidden() async throws {
        let folder = try TemporaryFolder()
        let cache = try primedCache(in: folder)
        let fetcher = FakeFetcher { request in .success(FetchResponse(status: 400, body: [], effectiveURL: request.url))
        }
        let response = try await CachedAPIClient(fetcher: fetcher, cache: cache, policy: CachePolicy(), now: Date.init)
            .load(request)
        #expect(response.status == 400 && !response.stale)
    }

    @Test func withoutACopyTheFailureStands() async throws {
        let folder = try TemporaryFolder()
        let fetcher = FakeFetcher { _ in .failure(.transport(url: "u", reason: "Connection refused")) }
        let client = CachedAPIClient(
            fetcher: fetcher, cache: CacheStore(root: folder.url), policy: CachePolicy(), now: Date.init)
        await #expect(throws: FetchError.self) { try await client.load(request) }
    }

    @Test func responseSizeLimitIsApplied() async throws {
        let folder = try TemporaryFolder()
        let fetcher = FakeFetcher { request in
            .success(
                FetchResponse(status: 200, body: [UInt8(request.maximumBodyBytes % 256)], effectiveURL: request.url))
        }
        let client = CachedAPIClient(
            fetcher: fetcher, cache: CacheStore(root: folder.url), policy: CachePolicy(), maximumResponseBytes: 1_000,
            now: Date.init)
        _ = try await client.load(request)
        #expect(fetcher.requests.first?.maximumBodyBytes == 1_000)
    }
}

@Suite struct CacheTemporaryFileTests {
    @Test func cacheWritesStageInOneFolderThatTheSweepClears() throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        _ = try cache.storeImage([0xFF, 0xD8, 0xFF, 0], format: .jpeg, from: "https://a/1.jpg")
        let orphan = cache.temporaryFolder.appendingPathComponent(".x.json.vitrine-999999999-1")
        try Data("half".utf8).write(to: orphan)
        cache.sweepTemporaryFiles()
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.temporaryFolder.path).isEmpty)
        #expect(cache.imageRecord(for: "https://a/1.jpg") != nil)
    }
}

/// API answers are kept as the bytes the API sent, with a small record beside them; anything that is not a whole,
/// matching pair reads as no answer, to be asked for again.
@Suite struct CachedResponseFormatTests {
    let request = FetchRequest(url: "http://127.0.0.1:1/api/?key=TOPSECRET42&q=Hamburg", secretQueryNames: ["key"])
    /// Bytes that are not UTF-8, to show they are kept as they came.
    let body: [UInt8] = Array("{\"hits\": []}".utf8) + [0xFF, 0x00, 0xC3]

    func store(_ body: [UInt8], in cache: CacheStore, at seconds: TimeInterval = 5) throws {
        try cache.store(
            FetchResponse(
                status: 200, headers: ["content-type": "application/json"], body: body, effectiveURL: request.url),
            for: request, at: Date(timeIntervalSince1970: seconds))
    }

    func file(_ path: String, in folder: TemporaryFolder) -> URL { folder.url.appendingPathComponent(path) }

    @Test func keepsTheBodyAsSentWithARecordBesideIt() throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        try store(body, in: cache)
        let paths = cache.responsePaths(for: request)
        #expect(try [UInt8](Data(contentsOf: file(paths.body, in: folder))) == body)
        let record = try JSONDecoder().decode(
            [String: JSONScalar].self, from: Data(contentsOf: file(paths.record, in: folder)))
        #expect(
            record == [
                "format": .number(2), "url": .text("http://127.0.0.1:1/api/?q=Hamburg"), "fetchedAt": .number(5),
                "status": .number(200), "contentType": .text("application/json"), "bodyBytes": .number(15),
                "bodySHA256": .text(SHA256Hasher.hex(of: body)),
            ])
        let stored = try #require(cache.storedResponse(for: request))
        #expect(stored.body == body && stored.status == 200 && stored.contentType == "application/json")
        let folderFiles = try FileManager.default.contentsOfDirectory(
            atPath: file(paths.body, in: folder).deletingLastPathComponent().path)
        #expect(folderFiles.count == 2)
    }

    /// A string or a number of the record, for comparing it whole.
    enum JSONScalar: Decodable, Equatable {
        case text(String)
        case number(Double)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                self = .number(try container.decode(Double.self))
            }
        }
    }

    @Test(arguments: [
        "truncate body", "flip a byte of the body", "remove body", "garble record", "remove record", "empty record",
        "record of another format", "record of another URL", "body of a later answer without its record",
    ])
    func anythingButAWholeMatchingPairIsNoAnswerAndIsAskedAgain(damage: String) async throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        try store(body, in: cache)
        let paths = cache.responsePaths(for: request)
        let bodyFile = file(paths.body, in: folder)
        let recordFile = file(paths.record, in: folder)
        let record = try String(contentsOf: recordFile, encoding: .utf8)
        switch damage {
        case "truncate body": try Data(body.prefix(4)).write(to: bodyFile)
        case "flip a byte of the body":
            try Data(body.map { $0 == UInt8(ascii: "h") ? UInt8(ascii: "H") : $0 }).write(to: bodyFile)
        case "remove body": try FileManager.default.removeItem(at: bodyFile)
        case "garble record": try Data("<html>maintenance</html>".utf8).write(to: recordFile)
        case "remove record": try FileManager.default.removeItem(at: recordFile)
        case "empty record": try Data().write(to: recordFile)
        case "record of another format":
            try Data(record.replacingOccurrences(of: "\"format\":2", with: "\"format\":3").utf8).write(to: recordFile)
        case "record of another URL":
            try Data(record.replacingOccurrences(of: "q=Hamburg", with: "q=Berlin").utf8).write(to: recordFile)
        default: try Data(Array("{\"hits\": [1]}".utf8)).write(to: bodyFile)
        }
        #expect(cache.storedResponse(for: request) == nil)
        let fetcher = FakeFetcher { request in
            .success(FetchResponse(status: 200, body: Array("{\"fresh\":1}".utf8), effectiveURL: request.url))
        }
        let response = try await CachedAPIClient(fetcher: fetcher, cache: cache, policy: CachePolicy(), now: Date.init)
            .load(request)
        #expect(!response.fromCache && fetcher.requests.count == 1)
        #expect(cache.storedResponse(for: request)?.body == Array("{\"fresh\":1}".utf8))
    }

    @Test func anEntryOfAnEarlierVersionIsAskedForAgainAndReplaced() async throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        let paths = cache.responsePaths(for: request)
        let legacy = file(String(paths.record.dropLast(".meta".count)) + ".json", in: folder)
        try FileManager.default.createDirectory(
            at: legacy.deletingLastPathComponent(), withIntermediateDirectories: true)
        let envelope =
            #"{"body":"\#(Data("{\"old\":1}".utf8).base64EncodedString())","fetchedAt":\#(Date().timeIntervalSince1970),"#
            + #""status":200,"url":"http:\/\/127.0.0.1:1\/api\/?q=Hamburg"}"#
        try Data(envelope.utf8).write(to: legacy)
        let fetcher = FakeFetcher { request in
            .success(FetchResponse(status: 200, body: Array("{\"new\":1}".utf8), effectiveURL: request.url))
        }
        let offline = CachedAPIClient(
            fetcher: fetcher, cache: cache, policy: CachePolicy(offline: true), now: Date.init)
        await #expect(throws: NothingCachedError.self) { try await offline.load(request) }
        let response = try await CachedAPIClient(fetcher: fetcher, cache: cache, policy: CachePolicy(), now: Date.init)
            .load(request)
        #expect(!response.fromCache && response.bodyText == "{\"new\":1}")
        #expect(!FileManager.default.fileExists(atPath: legacy.path))
        #expect(cache.storedResponse(for: request) != nil)
    }

    @Test func aBuildRecordsTheStampsOfBothFilesAndAChangedAnswerChangesThem() async throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        let answer = Mutex("{\"n\":1}")
        let fetcher = FakeFetcher { request in
            .success(FetchResponse(status: 200, body: Array(answer.withLock { $0 }.utf8), effectiveURL: request.url))
        }
        let first = CachedAPIClient(fetcher: fetcher, cache: cache, policy: CachePolicy(), now: Date.init)
        _ = try await first.load(request)
        let paths = cache.responsePaths(for: request)
        let uses = try #require(first.responsesUsed)
        #expect(uses.map(\.path) == [paths.body, paths.record])
        let fromCache = CachedAPIClient(fetcher: fetcher, cache: cache, policy: CachePolicy(), now: Date.init)
        _ = try await fromCache.load(request)
        #expect(fromCache.responsesUsed?.map(\.stamp) == uses.map(\.stamp) && fetcher.requests.count == 1)

        answer.withLock { $0 = "{\"n\":2}" }
        let refreshed = CachedAPIClient(
            fetcher: fetcher, cache: cache, policy: CachePolicy(refresh: true), now: Date.init)
        _ = try await refreshed.load(request)
        let changed = try #require(refreshed.responsesUsed)
        #expect(changed.count == 2 && zip(changed, uses).allSatisfy { $0.path == $1.path && $0.stamp != $1.stamp })
    }
}
