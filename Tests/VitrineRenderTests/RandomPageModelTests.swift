import Foundation
import Testing
import VitrineTemplates

@testable import VitrineModel
@testable import VitrineRender
@testable import VitrineSources

/// The random-image model: valid against the schema, rendered by random.xsl and favorites.xsl with hostile text
/// escaped, only http(s) links, and the policy's referral links and delivery.
@Suite struct RandomPageModelTests {
    static let fetched = Date(timeIntervalSince1970: 1_800_000_000)

    func state(delivery: ImageUsagePolicy.Delivery, failure: Bool = false) -> RandomPageState {
        let hotlink = delivery == .hotlink
        let photo = RandomPhoto(
            id: "abc", author: "<b>Jane</b> & \"Co\"", authorURL: "javascript:alert(1)",
            pageURL: "https://unsplash.com/photos/abc", caption: "<script>alert(1)</script> door",
            width: 4000, height: 3000,
            renditions: [.init(url: "https://images.example/p?w=400", width: 400, height: 300)],
            facts: [
                .init(label: "Location", value: "Hamburg"), .init(label: "Camera", value: "X"),
                .init(label: "Likes", value: "3"),
            ])
        let images: [RandomPageState.ShownImage] = [
            .init(
                remoteURL: "https://images.example/p?w=400", path: hotlink ? nil : "images/aa.jpg",
                sha256: hotlink ? nil : "aa", byteCount: hotlink ? nil : 10, mediaType: hotlink ? nil : "image/jpeg",
                width: 400, height: 300),
            .init(
                remoteURL: "https://images.example/p?w=1080", path: hotlink ? nil : "images/bb.jpg",
                sha256: hotlink ? nil : "bb", byteCount: hotlink ? nil : 10, mediaType: hotlink ? nil : "image/jpeg",
                width: 1080, height: 810),
        ]
        return RandomPageState(
            source: hotlink ? "unsplash" : "picsum", delivery: delivery, everySeconds: 600, photo: photo,
            images: images, fetchedAt: Self.fetched, nextUpdate: Self.fetched.addingTimeInterval(600),
            lastFailure: failure ? .init(at: Self.fetched, reason: "down") : nil)
    }

    func model(_ delivery: ImageUsagePolicy.Delivery) -> RandomPageModel {
        let unsplash = delivery == .hotlink
        return RandomPageModel(
            state: state(delivery: delivery),
            source: unsplash ? UnsplashSource(key: "k").description : PicsumSource().description,
            policy: unsplash ? .unsplash : .picsum, every: .init(seconds: 600)!,
            notices: [.init(kind: .stale, text: "A fresh image could not be loaded <now>.")])
    }

    func render(_ model: RandomPageModel, _ kind: GalleryModel.PageJob.Kind) throws -> LibXMLDocument {
        let job = try #require(model.pageJobs.first { $0.kind == kind })
        let page = try PageRenderer(theme: .builtIn, kinds: [.random, .favorites]).render(
            job, model: ModelDocument.make(model))
        return try LibXMLDocument.parseHTML(page.bytes)
    }

    @Test func bothKindsOfModelAreValidAgainstTheSchema() throws {
        for delivery in [ImageUsagePolicy.Delivery.download, .hotlink] {
            let document = ModelDocument.make(model(delivery))
            #expect(document.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [], "\(delivery)")
            #expect(document.strings("/gallery/random/@next-update") == ["2027-01-15T08:10:00Z"])
        }
    }

    @Test func theFieldsAreThreeToFiveAndTheAuthorLinksOnlyOverHTTP() {
        let fields = model(.download).fields
        #expect(fields.map(\.label) == ["Author", "Size", "Source page", "Location", "Camera"])
        #expect(fields[0].href == "https://unsplash.com/photos/abc", "a javascript: profile falls back to the page")
        #expect(fields[1].value == "4000 × 3000 px" && fields[2].value == "unsplash.com/photos/abc")
    }

    @Test func downloadedImagesAreFilesOfTheSiteAndTextIsEscaped() throws {
        let html = try render(model(.download), .random)
        #expect(html.strings("//img/@src") == ["images/bb.jpg"])
        #expect(html.strings("//img/@srcset") == ["images/aa.jpg 400w, images/bb.jpg 1080w"])
        #expect(html.strings("//img/@alt") == ["<script>alert(1)</script> door"])
        #expect(html.strings("//script[not(@src)]").isEmpty && html.strings("//b").isEmpty)
        #expect(html.strings("//a/@href").allSatisfy { !$0.hasPrefix("javascript:") })
        #expect(html.strings("//p[@class='notice']").first?.contains("<now>") == true)
        #expect(html.strings("//time[@data-next-update]/@datetime") == ["2027-01-15T08:10:00Z"])
        #expect(html.strings("//time[@data-next-update]") == ["2027-01-15 08:10 UTC"])
        #expect(html.strings("//script/@src") == ["assets/random.js", "assets/vitrine.js"])
    }

    @Test func hotlinkedImagesUseTheAPIsURLsAndEveryLinkToUnsplashCarriesTheReferral() throws {
        let html = try render(model(.hotlink), .random)
        #expect(html.strings("//img/@src") == ["https://images.example/p?w=1080"])
        let unsplashLinks = html.strings("//a/@href").filter { $0.contains("unsplash.com") }
        #expect(unsplashLinks.count >= 4)
        #expect(unsplashLinks.allSatisfy { $0.hasSuffix("utm_source=vitrine&utm_medium=referral") })
        #expect(html.strings("//p[@class='credit']").first?.hasSuffix("on Unsplash · Unsplash License") == true)
        #expect(
            html.strings("//p[@class='credit']//span[@class='license']/a/@href") == [
                "https://unsplash.com/license?utm_source=vitrine&utm_medium=referral"
            ])
    }

    @Test func theFavoritesPageLinksBackAndSaysWhatItNeeds() throws {
        let html = try render(model(.download), .favorites)
        #expect(html.strings("//h1") == ["Favorites"])
        #expect(html.strings("//nav//a/@href") == ["index.html"])
        #expect(html.strings("//*[@data-favorites-status]").first?.contains("need JavaScript") == true)
    }
}
