import Foundation
import Synchronization
import Testing
import VitrineBasics
import VitrineTestSupport

@testable import VitrineSources

/// Lorem Picsum's and Unsplash's answers read into photos, their errors, and the usage policy of each.
@Suite struct RandomSourceTests {
    static let picsumInfo = """
        {"id":"878","author":"Richard Loader","width":2500,"height":1656,"url":"https://unsplash.com/photos/qsEJGX4VqYU",
         "download_url":"https://picsum.photos/id/878/2500/1656"}
        """

    @Test func picsumInfoBecomesTwoFittedRenditionsOfTheStableIDRoute() throws {
        let photo = try PicsumSource.decodeInfo(Array(Self.picsumInfo.utf8), endpoint: "https://picsum.photos/")
        #expect(photo.id == "878" && photo.author == "Richard Loader")
        #expect(photo.width == 2500 && photo.height == 1656)
        #expect(photo.pageURL == "https://unsplash.com/photos/qsEJGX4VqYU")
        #expect(
            photo.renditions.map(\.url) == [
                "https://picsum.photos/id/878/960/636", "https://picsum.photos/id/878/1920/1272",
            ])
        #expect(photo.facts == [RandomPhoto.Fact(label: "Picsum ID", value: "878")])
    }

    @Test func picsumRenditionsNeverExceedTheOriginalNorPicsumsLimit() throws {
        let small = #"{"id": 5, "author": "A", "width": 800, "height": 600}"#
        let narrow = try PicsumSource.decodeInfo(Array(small.utf8), endpoint: "https://p.example")
        #expect(narrow.id == "5")
        #expect(narrow.renditions.map(\.url) == ["https://p.example/id/5/800/600"])
        let tall = #"{"id":"9","width":1000,"height":12000}"#
        let fitted = try PicsumSource.decodeInfo(Array(tall.utf8), endpoint: "https://p.example/")
        #expect(fitted.renditions.allSatisfy { ($0.height ?? 0) <= 5000 && ($0.width ?? 0) <= 1000 })
        #expect(fitted.author == nil)
        let bare = #"{"id":"3","download_url":"https://p.example/id/3/10/10","width":null}"#
        #expect(try PicsumSource.decodeInfo(Array(bare.utf8), endpoint: "https://p.example/").renditions.count == 1)
    }

    @Test func picsumRefusesWhatCannotBeAPhoto() {
        for body in ["[]", "{", #"{"id":""}"#, #"{"id":"../x","width":10,"height":10}"#, #"{"id":"4"}"#] {
            #expect(throws: SourceError.self, "\(body)") {
                try PicsumSource.decodeInfo(Array(body.utf8), endpoint: "https://p.example/")
            }
        }
        #expect(PicsumSource.error(status: 503, message: "").kind == .unavailable)
        #expect(PicsumSource.error(status: 400, message: "Invalid size").sentence.contains("Invalid size"))
        #expect(PicsumSource.pathSafe("a/b?c") == "abc" && PicsumSource.pathSafe("//") == "vitrine")
    }

    @Test func picsumTriesAnotherSeedWhenTheAPIRepeatsTheCurrentPhoto() async throws {
        let seeds = Counter()
        let api = FakeAPI { components in
            let seed = components.path.split(separator: "/")[1]
            return (200, seed == "s1" ? #"{"id":"1","width":10,"height":10}"# : #"{"id":"2","width":10,"height":10}"#)
        }
        let source = PicsumSource(endpoint: "https://p.example/", seed: { "s\(seeds.next())" })
        let photo = try await source.pick(avoiding: "1", using: api)
        #expect(photo.id == "2" && api.urls == ["https://p.example/seed/s1/info", "https://p.example/seed/s2/info"])
        await #expect(throws: SourceError.self) {
            try await PicsumSource(endpoint: "ftp://p.example/").pick(avoiding: nil, using: api)
        }
    }

    /// A photo as Unsplash sends it with nearly everything null.
    static let sparseUnsplash = """
        [{"id":"Dwu85P9SOIk","created_at":null,"width":null,"height":null,"color":null,"blur_hash":null,
          "description":null,"alt_description":null,
          "urls":{"raw":null,"full":null,"regular":"https://images.unsplash.com/photo-1?w=1080","small":null,"thumb":null},
          "links":{"html":null,"download_location":null},"user":{"name":null,"username":"jdoe","links":null},
          "location":null,"exif":null,"likes":null}]
        """

    static let fullUnsplash = """
        {"id":"abc","created_at":"2024-05-01T10:00:00Z","width":4000,"height":3000,"description":"  ",
         "alt_description":"a red door","urls":{"raw":"https://images.unsplash.com/photo-2?ixid=x","small":"https://images.unsplash.com/photo-2?w=400",
         "regular":"https://images.unsplash.com/photo-2?w=1080"},
         "links":{"html":"https://unsplash.com/photos/abc","download_location":"https://api.unsplash.com/photos/abc/download?ixid=x"},
         "user":{"name":"Jane Doe","username":"jane","links":{"html":"https://unsplash.com/@jane"}},
         "location":{"name":null,"city":"Hamburg","country":"Germany"},"exif":{"make":"Canon","model":"Canon EOS R5"},"likes":12}
        """

    @Test func unsplashNullHeavyPhotosStillGiveAPhotoWithWhatIsThere() throws {
        let photos = try UnsplashSource.decode(Array(Self.sparseUnsplash.utf8))
        let photo = try #require(photos.first)
        #expect(photo.id == "Dwu85P9SOIk" && photo.author == "jdoe" && photo.caption == nil)
        #expect(photo.authorURL == "https://unsplash.com/@jdoe" && photo.pageURL == nil)
        #expect(photo.renditions == [.init(url: "https://images.unsplash.com/photo-1?w=1080", width: nil, height: nil)])
        #expect(photo.facts.isEmpty && photo.downloadLocation == nil && photo.width == nil)
    }

    @Test func unsplashFullPhotoGivesRenditionsFactsAndTheDownloadLocation() throws {
        let photo = try #require(try UnsplashSource.decode(Array(Self.fullUnsplash.utf8)).first)
        #expect(photo.caption == "a red door" && photo.author == "Jane Doe")
        #expect(photo.renditions.map(\.width) == [400, 1080, 2048])
        #expect(photo.renditions.map(\.height) == [300, 810, 1536])
        #expect(
            photo.renditions.last?.url.contains("w=2048") == true
                && photo.renditions.last?.url.contains("ixid=x") == true)
        #expect(photo.facts.map(\.label) == ["Location", "Camera", "Published", "Likes"])
        #expect(photo.facts.map(\.value) == ["Hamburg, Germany", "Canon EOS R5", "2024-05-01", "12"])
        #expect(photo.downloadLocation == "https://api.unsplash.com/photos/abc/download?ixid=x")
    }

    @Test func unsplashSkipsPhotosWithoutAnImageAndReadsItsErrors() throws {
        let none = #"[{"id":"x","urls":{"regular":"javascript:alert(1)"}},{"id":null},7]"#
        #expect(try UnsplashSource.decode(Array(none.utf8)).isEmpty)
        #expect(throws: SourceError.self) { try UnsplashSource.decode(Array("nope".utf8)) }
        let denied = UnsplashSource.error(
            status: 401, body: Array(#"{"errors":["OAuth error: The access token is invalid"]}"#.utf8))
        #expect(denied.kind == .keyProblem && denied.sentence.contains("The access token is invalid"))
        #expect(UnsplashSource.error(status: 403, body: Array("Rate Limit Exceeded".utf8)).kind == .unavailable)
        #expect(
            UnsplashSource.error(status: 403, body: Array("Rate Limit Exceeded".utf8)).sentence.contains("rate limit"))
        #expect(UnsplashSource.error(status: 500, body: []).sentence.contains("no message"))
    }

    @Test func unsplashSendsTheKeyOnlyInTheHeaderAndAvoidsTheCurrentPhoto() async throws {
        let source = UnsplashSource(key: "secret-key-123", endpoint: "https://api.unsplash.com/v1", query: "red door")
        let request = source.request()
        #expect(request.url == "https://api.unsplash.com/v1/photos/random?count=3&query=red%20door")
        #expect(
            request.headers["Authorization"] == "Client-ID secret-key-123" && request.headers["Accept-Version"] == "v1")
        #expect(!request.url.contains("secret"))
        let api = FakeAPI { _ in
            (200, "[\(Self.fullUnsplash), \(Self.fullUnsplash.replacingOccurrences(of: "\"abc\"", with: "\"def\""))]")
        }
        #expect(try await source.pick(avoiding: "abc", using: api).id == "def")
        #expect(try await source.pick(avoiding: "zzz", using: api).id == "abc")
        let report = try #require(source.useReport(for: try await source.pick(avoiding: nil, using: api)))
        #expect(
            report.url.hasPrefix("https://api.unsplash.com/photos/abc/download")
                && report.headers["Authorization"] != nil)
        let elsewhere = UnsplashSource(key: "secret-key-123", endpoint: "https://unsplash.proxy.example/")
        #expect(elsewhere.useReport(for: try await source.pick(avoiding: nil, using: api)) == nil, "the key stays home")
        await #expect(throws: SourceError.self) { try await UnsplashSource(key: "").pick(avoiding: nil, using: api) }
    }

    @Test func thePolicyDecidesDeliveryCreditLinksAndUseReports() throws {
        #expect(ImageUsagePolicy.picsum.delivery == .download && !ImageUsagePolicy.picsum.reportsUse)
        #expect(ImageUsagePolicy.unsplash.delivery == .hotlink && ImageUsagePolicy.unsplash.reportsUse)
        #expect(PicsumSource().usage == .picsum && UnsplashSource(key: "k").usage == .unsplash)
        let unsplash = ImageUsagePolicy.unsplash
        #expect(
            unsplash.link("https://unsplash.com/@jane")
                == "https://unsplash.com/@jane?utm_source=vitrine&utm_medium=referral")
        #expect(
            unsplash.link("https://unsplash.com/?utm_source=x&a=1")
                == "https://unsplash.com/?a=1&utm_source=vitrine&utm_medium=referral")
        #expect(
            unsplash.link("javascript:alert(1)") == nil
                && ImageUsagePolicy.picsum.link("https://x.example/") == "https://x.example/")
        let photo = try #require(try UnsplashSource.decode(Array(Self.fullUnsplash.utf8)).first)
        let credit = unsplash.credit(for: photo, source: UnsplashSource(key: "k").description)
        #expect(credit.author == "Jane Doe" && credit.sourceLabel == "Unsplash")
        #expect(credit.authorURL == "https://unsplash.com/@jane?utm_source=vitrine&utm_medium=referral")
        #expect(credit.sourceURL == "https://unsplash.com/?utm_source=vitrine&utm_medium=referral")
        var anonymous = photo
        anonymous.author = "  "
        anonymous.authorURL = nil
        let fallback = ImageUsagePolicy.picsum.credit(for: anonymous, source: PicsumSource().description)
        #expect(fallback.author == "an unknown author" && fallback.authorURL == "https://unsplash.com/photos/abc")
    }
}

/// Hands out 1, 2, 3, … across tasks.
final class Counter: Sendable {
    private let value = Mutex(0)
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}
