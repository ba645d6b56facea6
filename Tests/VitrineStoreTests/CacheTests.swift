import Foundation
import Synchronization
import Testing
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
        #expect(stored.body == Data("{}".utf8) && stored.fetchedAt == Date(timeIntervalSince1970: 5))
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

    @Test func theURLIndexIsReadWithoutADecoderAndAgreesWithOne() throws {
        let sha = String(repeating: "ab", count: 32)
        let records = [
            CacheStore.ImageRecord(sha256: sha, format: .webp, byteCount: 12, width: 640, height: 427),
            CacheStore.ImageRecord(sha256: sha, format: .jpeg, byteCount: 0, width: nil, height: nil),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for record in records {
            let bytes = [UInt8](try encoder.encode(record))
            #expect(CacheStore.ImageRecord(flatJSON: bytes) == record)
            #expect(try JSONDecoder().decode(CacheStore.ImageRecord.self, from: Data(bytes)) == record)
        }
        let pretty = "{\n  \"byteCount\" : 12,\n  \"format\" : \"png\",\n  \"sha256\" : \"\(sha)\"\n}"
        for odd in [
            pretty, "{}", "[]", "{\"byteCount\":12,\"format\":\"jpeg\"}",
            "{\"byteCount\":-1,\"format\":\"jpeg\",\"sha256\":\"\(sha)\"}",
            "{\"byteCount\":1,\"format\":\"tiff\",\"sha256\":\"\(sha)\"}",
            "{\"byteCount\":1,\"format\":\"jpeg\",\"sha256\":\"\(sha)\",\"extra\":\"x\"}",
            "{\"byteCount\":1,\"format\":\"jp\\\"eg\",\"sha256\":\"\(sha)\"}", "{\"byteCount\":1,",
        ] {
            #expect(CacheStore.ImageRecord(flatJSON: Array(odd.utf8)) == nil, "\(odd)")
        }
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        let stored = try cache.storeImage([0xFF, 0xD8, 0xFF, 9], format: .jpeg, from: "https://a/9.jpg")
        let urls = folder.url.appendingPathComponent("urls")
        let index = try #require(FileManager.default.subpaths(atPath: urls.path)?.first { $0.hasSuffix(".json") })
        let prettyIndex = "{\n  \"byteCount\" : 4,\n  \"format\" : \"jpeg\",\n  \"sha256\" : \"\(stored.sha256)\"\n}"
        try Data(prettyIndex.utf8).write(to: urls.appendingPathComponent(index))
        #expect(cache.imageRecord(for: "https://a/9.jpg")?.sha256 == stored.sha256, "other layouts go to the decoder")
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
        let client = CachedAPIClient(fetcher: fetcher, cache: cache, policy: CachePolicy())
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
        let first = cache.responsePath(for: request(key: "key-one-1234"))
        #expect(first != cache.responsePath(for: request(key: "key-two-5678")))
        #expect(first == cache.responsePath(for: request(key: "key-one-1234")))
        #expect(!first.contains("key-one") && request(key: "key-one-1234").publicURL == "https://api.example/?q=x")
        let authorized = FetchRequest(url: "https://api.example/", headers: ["Authorization": "Client-ID a"])
        #expect(
            cache.responsePath(for: authorized)
                != cache.responsePath(
                    for: FetchRequest(url: "https://api.example/", headers: ["Authorization": "Client-ID b"])))
    }

    @Test func offlineWithNothingCachedFailsClearly() async throws {
        let folder = try TemporaryFolder()
        let fetcher = FakeFetcher { _ in .failure(.cancelled) }
        let client = CachedAPIClient(
            fetcher: fetcher, cache: CacheStore(root: folder.url), policy: CachePolicy(offline: true))
        await #expect(throws: NothingCachedError.self) { try await client.load(request) }
        #expect(fetcher.requests.isEmpty)
    }

    @Test func neverCachesErrorResponses() async throws {
        let folder = try TemporaryFolder()
        let fetcher = FakeFetcher { request in
            .success(FetchResponse(status: 500, body: Array("down".utf8), effectiveURL: request.url))
        }
        let client = CachedAPIClient(fetcher: fetcher, cache: CacheStore(root: folder.url), policy: CachePolicy())
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
        let client = CachedAPIClient(fetcher: fetcher, cache: cache, policy: CachePolicy())
        let response = try await client.load(request)
        #expect(response.stale && response.fromCache && response.bodyText == "{\"old\":1}")
        #expect(client.counters.staleFallbacks == 1 && client.counters.staleSince == Date(timeIntervalSince1970: 1_000))
    }

    @Test func networkFailuresFallBackToo() async throws {
        let folder = try TemporaryFolder()
        let cache = try primedCache(in: folder)
        let fetcher = FakeFetcher { _ in .failure(.transport(url: "u", reason: "Connection refused")) }
        let response = try await CachedAPIClient(fetcher: fetcher, cache: cache, policy: CachePolicy()).load(request)
        #expect(response.stale)
    }

    @Test func clientErrorsAreNotHidden() async throws {
        let folder = try TemporaryFolder()
        let cache = try primedCache(in: folder)
        let fetcher = FakeFetcher { request in .success(FetchResponse(status: 400, body: [], effectiveURL: request.url))
        }
        let response = try await CachedAPIClient(fetcher: fetcher, cache: cache, policy: CachePolicy()).load(request)
        #expect(response.status == 400 && !response.stale)
    }

    @Test func withoutACopyTheFailureStands() async throws {
        let folder = try TemporaryFolder()
        let fetcher = FakeFetcher { _ in .failure(.transport(url: "u", reason: "Connection refused")) }
        let client = CachedAPIClient(fetcher: fetcher, cache: CacheStore(root: folder.url), policy: CachePolicy())
        await #expect(throws: FetchError.self) { try await client.load(request) }
    }

    @Test func responseSizeLimitIsApplied() async throws {
        let folder = try TemporaryFolder()
        let fetcher = FakeFetcher { request in
            .success(
                FetchResponse(status: 200, body: [UInt8(request.maximumBodyBytes % 256)], effectiveURL: request.url))
        }
        let client = CachedAPIClient(
            fetcher: fetcher, cache: CacheStore(root: folder.url), policy: CachePolicy(), maximumResponseBytes: 1_000)
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
