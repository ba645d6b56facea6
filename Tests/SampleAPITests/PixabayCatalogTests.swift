import Foundation
import SampleAPI
import Testing

private let base = "http://127.0.0.1:4321"

@Suite("Pixabay catalogue (no server)")
struct PixabayCatalogTests {
    let catalog = PixabayCatalog()

    @Test func stableHashIsFNV1a64() {
        #expect(PixabayCatalog.stableHash("") == 0xcbf2_9ce4_8422_2325)
        #expect(PixabayCatalog.stableHash("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(PixabayCatalog.stableHash("foobar") == 0x8594_4171_f739_67e8)
    }

    @Test func normalisesQueries() {
        #expect(PixabayCatalog.normalize("  Hamburg \t  GRAFFITI \n") == "hamburg graffiti")
        #expect(PixabayCatalog.normalize("   ") == "")
        #expect(PixabayCatalog.isGraffiti("Street  Graffiti"))
        #expect(!PixabayCatalog.isGraffiti("graffitiwall"))
        #expect(PixabayCatalog.baseTerm(ofGraffitiQuery: "Graffiti  Hamburg  Altona") == "hamburg altona")
    }

    @Test func demoCounts() {
        let hamburgHash = PixabayCatalog.stableHash("hamburg")
        #expect(catalog.totalHits(for: "Hamburg") == 500)
        #expect(catalog.total(for: " hamburg ") == 500 + Int(hamburgHash % 5000))
        #expect(catalog.totalHits(for: "hamburg  Graffiti") == 16)
        #expect(catalog.total(for: "hamburg graffiti") == 16)
    }

    @Test(arguments: ["berlin graffiti", "graffiti", "graffiti paris wall", "lisbon graffiti"])
    func graffitiCounts(query: String) {
        let hits = catalog.totalHits(for: query)
        #expect(hits == 16 + Int(PixabayCatalog.stableHash(PixabayCatalog.normalize(query)) % 40))
        #expect((16...55).contains(hits))
        #expect(catalog.total(for: query) == hits)
    }

    @Test(arguments: ["berlin", "", "yellow flower", "graffitiwall"])
    func otherQueriesHaveFullCounts(query: String) {
        #expect(catalog.totalHits(for: query) == 500)
        #expect(catalog.total(for: query) >= 500)
    }

    @Test func hitCountOverridesAreNormalisedAndClamped() {
        let custom = PixabayCatalog(hitCounts: ["  Rare   Bird ": 7, "huge": 9000, "none": -3, "x graffiti": 2])
        #expect(custom.totalHits(for: "rare bird") == 7)
        #expect(custom.total(for: "RARE BIRD") == 7)
        #expect(custom.totalHits(for: "huge") == 500)
        #expect(custom.totalHits(for: "none") == 0)
        #expect(custom.totalHits(for: "x graffiti") == 2)
        let graffitiHash = PixabayCatalog.stableHash("hamburg graffiti")
        #expect(custom.totalHits(for: "hamburg graffiti") == 16 + Int(graffitiHash % 40))
        #expect(custom.lastPage(for: "none", perPage: 20) == 1)
        #expect(custom.search(query: "none", page: 1, perPage: 20, baseURL: base).hits.isEmpty)
        #expect(custom.lastPage(for: "rare bird", perPage: 3) == 3)
        #expect(custom.search(query: "rare bird", page: 3, perPage: 3, baseURL: base).hits.count == 1)
    }

    @Test func isDeterministic() {
        let again = PixabayCatalog()
        for query in ["hamburg", "hamburg graffiti", "köln dom"] {
            #expect(
                catalog.search(query: query, page: 2, perPage: 30, baseURL: base)
                    == again.search(query: query, page: 2, perPage: 30, baseURL: base)
            )
        }
        let hash = PixabayCatalog.stableHash("hamburg")
        let first = catalog.hit(at: 0, query: "Hamburg", baseURL: base)
        #expect(first.id == 1_000_000 + Int(hash % 8000) * 1000)
        #expect(catalog.hit(at: 41, query: "hamburg", baseURL: base).id == first.id + 41)
    }

    @Test func picturesFollowTheDocumentedFormula() throws {
        let hash = PixabayCatalog.stableHash("hamburg")
        let cityCount = UInt64(SampleImages.bundled.pictureCount(theme: "city"))
        for index in 0..<40 {
            let hit = catalog.hit(at: index, query: "hamburg", baseURL: base)
            let parts = try #require(captures(#".*/photo/\d+-city(\d\d)_150\.jpg"#, in: hit.previewURL))
            #expect(Int(parts[0]) == Int((hash + UInt64(index * 7)) % cityCount) + 1)
        }
    }

    @Test(arguments: [3, 7, 20, 200])
    func pagesSliceTheWholeResultList(perPage: Int) {
        let all = (0..<500).map { catalog.hit(at: $0, query: "hamburg", baseURL: base) }
        let lastPage = catalog.lastPage(for: "hamburg", perPage: perPage)
        #expect(lastPage == (500 + perPage - 1) / perPage)
        let paged = (1...lastPage).flatMap {
            catalog.search(query: "hamburg", page: $0, perPage: perPage, baseURL: base).hits
        }
        #expect(paged == all)
        #expect(catalog.search(query: "hamburg", page: lastPage + 1, perPage: perPage, baseURL: base).hits.isEmpty)
    }

    @Test func secondPageHoldsHitsTenToNineteen() {
        let page = catalog.search(query: "hamburg", page: 2, perPage: 10, baseURL: base)
        #expect(page.hits == (10..<20).map { catalog.hit(at: $0, query: "hamburg", baseURL: base) })
        #expect(page.totalHits == 500)
        #expect(page.total == catalog.total(for: "hamburg"))
    }

    @Test(arguments: ["hamburg", "hamburg graffiti", "graffiti", "berlin graffiti", "", "a b c"])
    func idsAreUniqueWithinAQuery(query: String) {
        let hits = (0..<catalog.totalHits(for: query)).map { catalog.hit(at: $0, query: query, baseURL: base) }
        #expect(Set(hits.map(\.id)).count == hits.count)
        #expect(Set(hits.map(\.pageURL)).count == hits.count)
    }

    @Test(arguments: ["hamburg graffiti", "Graffiti  Hamburg", "berlin graffiti", "graffiti paris wall"])
    func everyFifthGraffitiHitIsTheBaseTermsHit(query: String) {
        let baseTerm = PixabayCatalog.baseTerm(ofGraffitiQuery: query)
        for index in 0..<catalog.totalHits(for: query) {
            let hit = catalog.hit(at: index, query: query, baseURL: base)
            let baseHit = catalog.hit(at: index, query: baseTerm, baseURL: base)
            if index % 5 == 4 {
                #expect(hit == baseHit)
                #expect(hit.previewURL.contains("-city"))
            } else {
                #expect(hit.id != baseHit.id)
                #expect(hit.previewURL.contains("-graffiti"))
            }
        }
    }

    @Test func graffitiAloneHasNoCityHits() {
        for index in 0..<catalog.totalHits(for: "graffiti") {
            #expect(catalog.hit(at: index, query: "graffiti", baseURL: base).previewURL.contains("-graffiti"))
        }
    }

    @Test(arguments: ["hamburg", "hamburg graffiti", "", "Straße"])
    func fieldsHaveThePixabayShape(query: String) throws {
        let normalised = PixabayCatalog.normalize(query)
        for index in 0..<60 {
            let hit = catalog.hit(at: index, query: query, baseURL: base)
            let id = String(hit.id)
            #expect(hit.type == "photo")
            let tags = hit.tags.components(separatedBy: ", ")
            #expect(tags.count == 3)
            #expect(Set(tags).count == 3)
            #expect(tags.allSatisfy { !$0.isEmpty && $0 == $0.lowercased() })
            if let firstWord = normalised.split(separator: " ").first {
                #expect(tags[0] == String(firstWord))
            }
            let slug = try #require(captures(#"\Q\#(base)\E/photos/([a-z0-9-]+)-(\d+)/"#, in: hit.pageURL))
            #expect(slug[1] == id)
            #expect(!slug[0].hasPrefix("-") && !slug[0].hasSuffix("-"))
            let preview = try #require(
                captures(#"\Q\#(base)\E/photo/(\d+)-(city|graffiti)(\d\d)_150\.jpg"#, in: hit.previewURL)
            )
            #expect(preview[0] == id)
            let stem = "\(preview[0])-\(preview[1])\(preview[2])"
            #expect(hit.webformatURL == "\(base)/get/\(stem)_640.jpg")
            #expect(hit.largeImageURL == "\(base)/get/\(stem)_1280.jpg")
            #expect(hit.userImageURL == "\(base)/photo/u\(hit.userID)-city01_150.jpg")
            #expect(hit.userURL == "\(base)/users/\(hit.user)-\(hit.userID)/")
            #expect(hit.views > 0 && hit.downloads > 0 && hit.downloads <= hit.views)
            #expect(hit.likes >= 0 && hit.collections >= 0 && hit.comments >= 0 && hit.imageSize > 0)
            #expect(!hit.noAiTraining && !hit.isGRated && hit.isLowQuality == 0)
        }
    }

    @Test func oneHitInSevenIsAIGenerated() {
        let hash = PixabayCatalog.stableHash("hamburg")
        let all = (0..<500).map { catalog.hit(at: $0, query: "hamburg", baseURL: base) }
        for (index, hit) in all.enumerated() {
            #expect(hit.isAiGenerated == ((Int(hash % 7) + index) % 7 == 0), "hit \(index)")
        }
        for start in 0...(all.count - 7) {
            #expect(all[start..<start + 7].filter { $0.isAiGenerated }.count == 1, "hits \(start)..<\(start + 7)")
        }
        for page in 1...2 {
            let hits = catalog.search(query: "Hamburg", page: page, perPage: 20, baseURL: base).hits
            let marked = hits.filter { $0.isAiGenerated }.count
            #expect((2...3).contains(marked), "demo page \(page): \(marked) of 20")
        }
        for query in ["hamburg graffiti", "graffiti", "berlin", "köln dom"] {
            let hits = catalog.search(query: query, page: 1, perPage: 20, baseURL: base).hits
            #expect(hits.contains { $0.isAiGenerated }, "\(query)")
            #expect(hits.filter { $0.isAiGenerated }.count * 2 < hits.count, "\(query)")
        }
    }

    @Test func slugIsASCII() {
        let hit = catalog.hit(at: 0, query: "Straße Köln", baseURL: base)
        #expect(hit.pageURL == "\(base)/photos/strasse-\(hit.id)/")
        #expect(hit.tags.hasPrefix("straße, "))
    }

    @Test(arguments: ["hamburg", "hamburg graffiti", "berlin graffiti"])
    func dimensionsMatchTheImageTable(query: String) throws {
        let images = SampleImages.bundled
        for index in 0..<catalog.totalHits(for: query) {
            let hit = catalog.hit(at: index, query: query, baseURL: base)
            let parts = try #require(captures(#".*/photo/\d+-(city|graffiti)(\d\d)_150\.jpg"#, in: hit.previewURL))
            let number = try #require(Int(parts[1]))
            let preview = try #require(images.image(theme: parts[0], number: number, size: 150))
            let webformat = try #require(images.image(theme: parts[0], number: number, size: 640))
            let large = try #require(images.image(theme: parts[0], number: number, size: 1280))
            #expect(hit.previewWidth == preview.width && hit.previewHeight == preview.height)
            #expect(hit.webformatWidth == webformat.width && hit.webformatHeight == webformat.height)
            #expect(hit.imageWidth == 3 * large.width && hit.imageHeight == 3 * large.height)
        }
    }
}

@Suite("Bundled sample images")
struct SampleImagesTests {
    let images = SampleImages.bundled

    @Test func hasTwelveCityAndEightGraffitiPicturesInThreeRenditions() {
        #expect(images.pictureCount(theme: "city") == 12)
        #expect(images.pictureCount(theme: "graffiti") == 8)
        #expect(images.all.count == 120)
        for theme in ["city", "graffiti"] {
            for number in 1...images.pictureCount(theme: theme) {
                for size in SampleImages.sizes {
                    #expect(images.image(theme: theme, number: number, size: size) != nil)
                }
            }
        }
        #expect(images.image(theme: "city", number: 13, size: 150) == nil)
        #expect(images.image(theme: "beach", number: 1, size: 150) == nil)
    }

    @Test func everyRenditionIsAJPEGOfItsStatedSize() throws {
        for image in images.all {
            #expect(isJPEG(image.bytes))
            switch image.size {
            case 180, 340: #expect(image.height == image.size)
            case 960: #expect(image.width <= 960 && image.height <= 720 && (image.width == 960 || image.height == 720))
            default: #expect(max(image.width, image.height) == image.size)
            }
            let size = try #require(jpegDimensions(image.bytes))
            #expect(size.width == image.width && size.height == image.height, "\(image.theme) \(image.number)")
        }
    }
}
