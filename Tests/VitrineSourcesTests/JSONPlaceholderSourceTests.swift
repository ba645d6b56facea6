import Foundation
import Synchronization
import Testing
import VitrineBasics
import VitrineTestSupport

@testable import VitrineHTTP
@testable import VitrineSources
@testable import VitrineStore

/// Serves JSONPlaceholder-shaped lists by path, counting how many loads run at once. With `holdingPhotoLists`, it
/// holds every album's photo list until that many loads are under way at once (`allHeld`).
final class FakeJSONPlaceholder: APIResponseLoading {
    private let state = Mutex((inFlight: 0, most: 0, paths: [String]()))
    private let answer: @Sendable (String) -> (Int, String)
    private let holdingPhotoLists: Int?
    let allHeld = Handshake()

    init(
        holdingPhotoLists: Int? = nil,
        _ answer: @escaping @Sendable (String) -> (Int, String) = FakeJSONPlaceholder.standard
    ) {
        self.holdingPhotoLists = holdingPhotoLists
        self.answer = answer
    }

    var paths: [String] { state.withLock { $0.paths } }
    var mostAtOnce: Int { state.withLock { $0.most } }

    func load(_ request: FetchRequest) async throws -> APIResponse {
        let path = String(request.url.dropFirst("https://api.example".count))
        let inFlight = state.withLock {
            $0.inFlight += 1
            $0.most = max($0.most, $0.inFlight)
            $0.paths.append(path)
            return $0.inFlight
        }
        if let holdingPhotoLists, path.hasPrefix("/albums/") {
            if inFlight == holdingPhotoLists {
                // Tasks already started run before the release: a source that started more would show it.
                for _ in 0..<100 { await Task.yield() }
                allHeld.signal()
            }
            if await !allHeld.wait(atMost: .seconds(300)) { allHeld.signal() }
        }
        state.withLock { $0.inFlight -= 1 }
        let (status, body) = answer(path)
        return APIResponse(
            status: status, body: Array(body.utf8), fetchedAt: Date(timeIntervalSince1970: 1_000), fromCache: false)
    }

    /// 3 users with 4 albums of 5 photos each, in the real API's shape.
    static let standard: @Sendable (String) -> (Int, String) = { path in
        let parts = path.split(separator: "/")
        switch (parts.first, parts.count) {
        case ("users", 1):
            let users = (1...3).map { #"{"id":\#($0),"name":"Name \#($0)","username":"user\#($0)","email":"x@y"}"# }
            return (200, "[" + users.joined(separator: ",") + "]")
        case ("users", 3):
            let user = Int(parts[1])!
            let albums = (1...4).map { index in
                let id = (user - 1) * 4 + index
                return #"{"userId":\#(user),"id":\#(id),"title":"album \#(id)"}"#
            }
            return (200, "[" + albums.joined(separator: ",") + "]")
        case ("albums", 3):
            let album = Int(parts[1])!
            let photos = (1...5).map { index in
                let id = (album - 1) * 5 + index
                let hex = String(id * 4099, radix: 16)
                return
                    #"{"albumId":\#(album),"id":\#(id),"title":"photo \#(id)","url":"https://via.placeholder.com/600/\#(hex)","thumbnailUrl":"https://via.placeholder.com/150/\#(hex)"}"#
            }
            return (200, "[" + photos.joined(separator: ",") + "]")
        default:
            return (404, "{}")
        }
    }
}

@Suite struct JSONPlaceholderSourceTests {
    let rewrite = PlaceholderURLRewrite(imageEndpoint: "https://picsum.photos")

    @Test func placeholderURLsBecomeSeededPicsumURLs() {
        #expect(
            rewrite.rewrite("https://via.placeholder.com/600/92c952")
                == RemoteImage(url: "https://picsum.photos/seed/92c952/600", width: 600, height: 600))
        #expect(
            rewrite.rewrite("https://via.placeholder.com/150/92c952")?.url == "https://picsum.photos/seed/92c952/150")
        // Short codes stay as they are: the seed is the code, not a padded colour.
        #expect(rewrite.rewrite("https://via.placeholder.com/600/5e3a")?.url == "https://picsum.photos/seed/5e3a/600")
        #expect(rewrite.rewrite("https://via.placeholder.com/150/f")?.url == "https://picsum.photos/seed/f/150")
        #expect(
            rewrite.rewrite("http://VIA.placeholder.com/150/ABCDEF")?.url == "https://picsum.photos/seed/abcdef/150")
        #expect(rewrite.rewrite("https://via.placeholder.com/150/abc.png")?.url == "https://picsum.photos/seed/abc/150")
        let mirrored = PlaceholderURLRewrite(imageEndpoint: "http://127.0.0.1:8717/")
        #expect(
            mirrored.rewrite("https://via.placeholder.com/600/92c952")?.url == "http://127.0.0.1:8717/seed/92c952/600")
    }

    @Test func placeholderURLsOfAnotherShapeAreRefused() {
        for url in [
            "https://via.placeholder.com/600", "https://via.placeholder.com/600/92c952/extra",
            "https://via.placeholder.com/0/92c952", "https://via.placeholder.com/99999/92c952",
            "https://via.placeholder.com/abc/92c952", "https://via.placeholder.com/600/",
            "https://via.placeholder.com/600/1234567", "https://via.placeholder.com/600/xyz",
            "https://via.placeholder.com/600/%2e%2e",
        ] {
            #expect(rewrite.rewrite(url) == nil, "\(url)")
        }
    }

    @Test func otherURLsAreLeftAloneOrRefusedByTheURLPolicy() {
        #expect(rewrite.rewrite("https://cdn.example/p/1.jpg") == RemoteImage(url: "https://cdn.example/p/1.jpg"))
        for url in ["javascript:alert(1)", "file:///etc/passwd", "ftp://via.placeholder.com/600/abc", "", "not a url"] {
            #expect(rewrite.rewrite(url) == nil, "\(url)")
        }
    }

    @Test func theCoverLooksRandomButIsTheSameOnEveryRun() {
        let photos = (1...50).map { id in
            SourceItem(
                sourceID: String(id),
                entries: [
                    .found(
                        caption: "", credit: nil, tile: RemoteImage(url: "https://x/\(id)/150"),
                        full: RemoteImage(url: "https://x/\(id)/600"), license: .unknown)
                ])
        }
        let covers = (1...100).map { JSONPlaceholderSource.cover(of: photos, albumID: $0)!.url }
        #expect(covers == (1...100).map { JSONPlaceholderSource.cover(of: photos, albumID: $0)!.url })
        #expect(Set(covers).count > 25)
        #expect(covers.filter { $0 == "https://x/1/150" }.count < 10)
        // FNV-1a: a fixed function, not Swift's per-process seeded Hasher.
        #expect(JSONPlaceholderSource.stableHash("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(JSONPlaceholderSource.cover(of: [], albumID: 1) == nil)
    }

    @Test func usersAreReadLeniently() throws {
        let body = """
            [{"id": 1, "name": "Leanne Graham", "username": "Bret"},
             {"id": "2", "username": "Antonette"},
             {"id": 3, "name": "  "},
             {"id": -4, "name": "Negative"},
             {"id": 1, "name": "Again"},
             "not an object",
             {"id": 5, "name": "Only Name", "username": 17}]
            """
        let users = try JSONPlaceholderSource.decodeUsers(Array(body.utf8))
        #expect(
            users.elements == [
                .init(id: 1, name: "Leanne Graham", username: "Bret"),
                .init(id: 2, name: "Antonette", username: "Antonette"),
                .init(id: 5, name: "Only Name", username: "17"),
            ])
        #expect(users.warnings.count == 4)
        #expect(users.warnings[0] == "Skipped user 3: it has neither “name” nor “username”.")
    }

    @Test func albumsOfAnotherUserAndPhotosWithoutAUsableURLAreSkipped() throws {
        let user = JSONPlaceholderSource.User(id: 1, name: "N", username: "u")
        let albums = try JSONPlaceholderSource.decodeAlbums(
            Array(#"[{"userId":1,"id":1,"title":"a"},{"userId":2,"id":11,"title":"b"},{"id":3}]"#.utf8), of: user)
        #expect(albums.elements == [.init(id: 1, title: "a"), .init(id: 3, title: "Album 3")])
        #expect(albums.warnings == ["Skipped album 2 of user 1: it belongs to user 2."])
        let photos = try JSONPlaceholderSource.decodePhotos(
            Array(
                """
                [{"id":1,"title":"one","url":"https://via.placeholder.com/600/abc","thumbnailUrl":"https://via.placeholder.com/150/abc"},
                 {"id":2,"title":"two","thumbnailUrl":"https://via.placeholder.com/150/def"},
                 {"id":3,"title":"three","url":"javascript:alert(1)"},
                 {"id":4,"url":"https://via.placeholder.com/600/1"}]
                """.utf8), album: .init(id: 1, title: "a"), rewrite: rewrite)
        #expect(photos.elements.map(\.sourceID) == ["1", "2", "4"])
        #expect(
            photos.elements[1].entries[0]
                == .found(
                    caption: "two", credit: nil,
                    tile: RemoteImage(url: "https://picsum.photos/seed/def/150", width: 150, height: 150),
                    full: RemoteImage(url: "https://picsum.photos/seed/def/150", width: 150, height: 150),
                    license: .unknown))
        #expect(
            photos.warnings == [
                "Skipped photo 3 of album 1: neither “url” nor “thumbnailUrl” is an image URL Vitrine can use."
            ])
    }

    @Test func unreadableListsAreOneSentence() {
        for body in ["{", #"{"users": []}"#] {
            #expect(throws: SourceError.self) { try JSONPlaceholderSource.decodeUsers(Array(body.utf8)) }
        }
        do {
            _ = try JSONPlaceholderSource.decodeUsers(Array("<html>".utf8))
            Issue.record("HTML is not a user list")
        } catch let error as SourceError {
            #expect(
                error.sentence
                    == "JSONPlaceholder returned data Vitrine cannot read: the list of users is not valid JSON.")
            #expect(error.kind == .badData)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func collectsTheHierarchyWithinTheLimitsAndBoundedConcurrency() async throws {
        let api = FakeJSONPlaceholder()
        let source = JSONPlaceholderSource(
            endpoint: "https://api.example", imageEndpoint: "https://img.example", userLimit: 2, albumLimit: 3)
        let result = try await source.collect(using: api)
        #expect(result.items.isEmpty)
        #expect(result.groups.map(\.title) == ["Name 1", "Name 2"])
        #expect(result.groups.map(\.subtitle) == ["user1", "user2"])
        #expect(result.groups[1].groups.map(\.sourceID) == ["5", "6", "7"])
        #expect(result.allItems.count == 2 * 3 * 5)
        #expect(Set(api.paths).count == api.paths.count)
        #expect(api.paths.filter { $0.hasPrefix("/albums/") }.count == 6)
        #expect(!api.paths.contains("/users/3/albums"))
        let album = result.groups[0].groups[0]
        #expect(album.folder == "albums" && album.itemFolder == "photos")
        let cover = try #require(album.cover)
        #expect(cover.url.hasPrefix("https://img.example/seed/") && cover.url.hasSuffix("/150"))
        // JSONPlaceholder says nothing of licenses: every photo is shown from its own URL, none is downloaded.
        #expect(result.remoteImageURLs.isEmpty && album.coverLicense == .unknown)
        let pictures = result.allItems.flatMap(\.entries).compactMap { entry -> (RemoteImage, RemoteImage, License)? in
            guard case .found(_, _, let tile, let full, let license, _, _, _) = entry else { return nil }
            return (tile, full, license)
        }
        #expect(pictures.count == 2 * 3 * 5 && pictures.allSatisfy { $0.2 == .unknown })
        #expect(
            pictures.allSatisfy {
                $0.0.url.hasPrefix("https://img.example/seed/") && $0.1.url.hasPrefix("https://img.example/seed/")
            })

        // 12 photo lists, held until as many are asked for at once as the source allows.
        let all = FakeJSONPlaceholder(holdingPhotoLists: JSONPlaceholderSource.concurrentRequests)
        let everything = try await JSONPlaceholderSource(endpoint: "https://api.example").collect(using: all)
        #expect(everything.allItems.count == 3 * 4 * 5)
        #expect(all.mostAtOnce == JSONPlaceholderSource.concurrentRequests)
    }

    @Test func httpFailuresAreTypedErrors() async throws {
        func sentence(_ api: FakeJSONPlaceholder, endpoint: String = "https://api.example", image: String? = nil)
            async -> String?
        {
            do {
                let source = JSONPlaceholderSource(
                    endpoint: endpoint, imageEndpoint: image ?? PlaceholderURLRewrite.defaultImageEndpoint)
                _ = try await source.collect(using: api)
                return nil
            } catch let error as SourceError {
                return error.sentence
            } catch {
                return "\(error)"
            }
        }
        let gone = FakeJSONPlaceholder { _ in (404, "Not found") }
        #expect(
            await sentence(gone)
                == "JSONPlaceholder refused the request with HTTP 404 (Not found); check the endpoint URL.")
        let down = FakeJSONPlaceholder { path in path == "/users" ? FakeJSONPlaceholder.standard(path) : (503, "busy") }
        #expect(await sentence(down) == "JSONPlaceholder answered HTTP 503 (busy); try again later.")
        #expect(
            await sentence(gone, endpoint: "file:///etc") == "The endpoint file:///etc is not an http or https URL.")
        #expect(await sentence(gone, image: "ftp://x") == "The endpoint ftp://x is not an http or https URL.")
        #expect(gone.paths.count == 1)
    }
}
