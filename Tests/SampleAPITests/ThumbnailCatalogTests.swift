import Foundation
import SampleAPI
import Testing

private let baseURL = "http://127.0.0.1:9"

@Suite("Media-coverage catalogue (no server)")
struct ThumbnailCatalogTests {
    @Test func countAndLimitAreClamped() {
        let catalog = ThumbnailCatalog()
        #expect(catalog.count == 240)
        #expect(catalog.coverages(limit: nil, baseURL: baseURL).count == 100)
        #expect(catalog.coverages(limit: 7, baseURL: baseURL).count == 7)
        #expect(catalog.coverages(limit: 1000, baseURL: baseURL).count == 240)
        #expect(catalog.coverages(limit: 0, baseURL: baseURL).isEmpty)
        #expect(catalog.coverages(limit: -3, baseURL: baseURL).isEmpty)
        #expect(ThumbnailCatalog(count: 1000).count == 300)
        #expect(ThumbnailCatalog(count: 300).coverages(limit: 301, baseURL: baseURL).count == 300)
        #expect(ThumbnailCatalog(count: -1).coverages(limit: 10, baseURL: baseURL).isEmpty)
        #expect(SampleAPIConfiguration(thumbnailCount: 999).thumbnailCount == 300)
        #expect(SampleAPIConfiguration().thumbnailCount == 240)
    }

    @Test func elementsAreDeterministicAndDistinct() throws {
        let all = ThumbnailCatalog(count: 300).coverages(limit: 300, baseURL: baseURL)
        #expect(all == ThumbnailCatalog(count: 300).coverages(limit: 300, baseURL: baseURL))
        #expect(Array(all.prefix(240)) == ThumbnailCatalog().coverages(limit: 240, baseURL: baseURL))
        #expect(Set(all.map(\.id)).count == 300)
        #expect(Set(all.map(\.thumbnail.id)).count == 300)
        #expect(all.allSatisfy { captures("coverage-[0-9a-f]{6}", in: $0.id) != nil })
        #expect(all.map(\.publishedAt) == all.map(\.publishedAt).sorted(by: >))
        #expect(all.allSatisfy { captures(#"\d{4}-\d\d-\d\d"#, in: $0.publishedAt) != nil })
        #expect(all.allSatisfy { $0.mediaType == 0 && $0.coverageURL.hasPrefix("https://example.com/news/") })
        #expect(all.allSatisfy { !$0.title.isEmpty && !$0.publishedBy.isEmpty })
    }

    @Test func optionalFieldsVaryAcrossElements() {
        let all = ThumbnailCatalog().coverages(limit: 100, baseURL: baseURL)
        func someButNotAll(_ predicate: (MediaCoverage) -> Bool) -> Bool {
            all.contains(where: predicate) && !all.allSatisfy(predicate)
        }
        #expect(someButNotAll { $0.backupDetails != nil })
        #expect(someButNotAll { $0.description != nil })
        #expect(someButNotAll { $0.seoSlugWithId != nil })
        #expect(someButNotAll { $0.thumbnail.qualities.isEmpty })
        #expect(someButNotAll { $0.language == "hindi" })
        #expect(all.allSatisfy { ["english", "hindi"].contains($0.language) })
        #expect(all.allSatisfy { $0.thumbnail.qualities.isEmpty || $0.thumbnail.qualities == [10, 20, 30, 40] })
        #expect(all.contains { $0.title.unicodeScalars.contains { $0.value >= 0x900 && $0.value < 0x980 } })
    }

    @Test func thumbnailsPointAtServedImagesOfTheRightShape() throws {
        let catalog = ThumbnailCatalog()
        let coverages = catalog.coverages(limit: 100, baseURL: baseURL)
        var themes: Set<String> = []
        var fractional = 0
        for coverage in coverages {
            let thumbnail = coverage.thumbnail
            let uuid = try #require(captures("img-([0-9a-f-]{36})", in: thumbnail.id)?.first)
            #expect(thumbnail.version == 1 && thumbnail.key == "image.jpg")
            #expect(thumbnail.domain == "\(baseURL)/cimg")
            #expect(thumbnail.basePath == "images/\(thumbnail.id)")
            #expect(thumbnail.url() == "\(baseURL)/cimg/images/\(thumbnail.id)/0/image.jpg")
            let shape = "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[12][0-9a-f]{11}"
            #expect(captures(shape, in: uuid) != nil)
            let picture = try #require(ThumbnailCatalog.picture(forUUID: uuid))
            themes.insert(picture.theme)

            let full = try #require(catalog.image(imageID: thumbnail.id, quality: 0))
            #expect(full.size == 1280 && full.theme == picture.theme && full.number == picture.number)
            let pixels = try #require(jpegDimensions(full.bytes))
            let ratio = (Double(pixels.width) / Double(pixels.height) * 1000).rounded() / 1000
            #expect(thumbnail.aspectRatio == ratio)
            if thumbnail.aspectRatio != thumbnail.aspectRatio.rounded() {
                fractional += 1
            }
            for (quality, edge) in [(10, 150), (20, 150), (30, 640), (40, 640)] {
                let image = try #require(catalog.image(imageID: thumbnail.id, quality: quality))
                #expect(image.size == edge && image.number == picture.number)
                #expect(abs(Double(image.width) / Double(image.height) - thumbnail.aspectRatio) < 0.01)
            }
        }
        #expect(themes == ["city", "graffiti"])
        #expect(fractional > 50)
    }

    @Test func unknownImagesAreRejected() throws {
        let catalog = ThumbnailCatalog()
        let id = catalog.coverage(at: 4, baseURL: baseURL).thumbnail.id
        #expect(catalog.image(imageID: id, quality: 0) != nil)
        #expect(ThumbnailCatalog(count: 0).image(imageID: id, quality: 40) != nil, "the count does not matter")
        for quality in [1, 5, 50, 100, -10] {
            #expect(catalog.image(imageID: id, quality: quality) == nil)
        }
        let uuid = String(id.dropFirst(4))
        var tampered = Array(uuid)
        tampered[0] = tampered[0] == "a" ? "b" : "a"
        let bad = [
            String(tampered), uuid.uppercased(), "9a39e8cf-1111-4222-8333-100000000000", String(uuid.dropLast()),
            uuid.replacingOccurrences(of: "-", with: ""), "", "not-a-uuid",
        ]
        for candidate in bad {
            #expect(ThumbnailCatalog.picture(forUUID: candidate) == nil, "\(candidate)")
            #expect(catalog.image(imageID: "img-\(candidate)", quality: 0) == nil)
        }
        #expect(catalog.image(imageID: uuid, quality: 0) == nil)
        #expect(ThumbnailCatalog.servedEdge(forQuality: 0) == 1280)
        #expect(ThumbnailCatalog.servedEdge(forQuality: 15) == nil)
    }
}
