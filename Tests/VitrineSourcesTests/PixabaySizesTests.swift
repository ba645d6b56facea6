import Foundation
import Testing

@testable import VitrineSources

/// Pixabay's other sizes of `webformatURL` (its `_640` replaced by `_180`, `_340`, `_960`), which a page offers
/// in its `srcset`: derived only from a URL and sizes that say what they are, never from a hostile answer's guess.
@Suite struct PixabaySizesTests {
    private func alternates(_ hit: String) throws -> [RemoteImage] {
        let page = try PixabaySource.decodePage(
            Array("{\"totalHits\": 1, \"hits\": [\(hit)]}".utf8), query: "q", page: 1, fetchedAt: nil)
        let entry = try #require(page.hits.first?.entry)
        guard case .found(_, _, _, _, _, _, let alternates, _) = entry else {
            Issue.record("the hit was not found")
            return []
        }
        return alternates
    }

    private func hit(webformat: String, width: String = "640", height: String = "427", original: String = "")
        -> String
    {
        """
        {"id": 7, "webformatURL": "\(webformat)", "webformatWidth": \(width), "webformatHeight": \(height),
         "largeImageURL": "https://cdn.example/a_1280.jpg"\(original)}
        """
    }

    @Test func aLandscapeWebFormatGivesItsTallSizesAndTheBoxedOne() throws {
        let sizes = try alternates(
            hit(
                webformat: "https://cdn.example/photo/2024/x-123_640.jpg",
                original: ", \"imageWidth\": 6000, \"imageHeight\": 4000"))
        #expect(
            sizes == [
                RemoteImage(url: "https://cdn.example/photo/2024/x-123_180.jpg", width: 270, height: 180),
                RemoteImage(url: "https://cdn.example/photo/2024/x-123_340.jpg", width: 510, height: 340),
                RemoteImage(url: "https://cdn.example/photo/2024/x-123_960.jpg", width: 960, height: 640),
            ])
    }

    @Test func aPortraitFitsTheBoxByItsHeight() throws {
        let sizes = try alternates(
            hit(
                webformat: "https://cdn.example/p_640.jpg", width: "427", height: "640",
                original: ", \"imageWidth\": 2000, \"imageHeight\": 3000"))
        #expect(sizes.map(\.width) == [120, 227, 480])
        #expect(sizes.map(\.height) == [180, 340, 720])
    }

    @Test func noLargerSizeThanTheOriginalAndNoneWithoutItsSize() throws {
        // An original no larger than the web format has no 960 rendition; one of unknown size gets none either.
        let small = try alternates(
            hit(webformat: "https://cdn.example/s_640.jpg", original: ", \"imageWidth\": 640, \"imageHeight\": 427"))
        #expect(small.map(\.width) == [270, 510])
        let unknown = try alternates(hit(webformat: "https://cdn.example/u_640.jpg"))
        #expect(unknown.map(\.width) == [270, 510])
        // A web format no taller than a size gets no such size.
        let flat = try alternates(hit(webformat: "https://cdn.example/f_640.jpg", width: "640", height: "200"))
        #expect(flat.map(\.height) == [180])
    }

    @Test(arguments: [
        // no `_640` to replace, or more than one: Pixabay's rule does not say which
        "https://cdn.example/photo.jpg", "https://cdn.example/a_640_640.jpg.x_640.jpg",
        "https://cdn.example/a_640.jpg_640.jpg",
        // `_640` only in a folder, not in the file's name
        "https://cdn.example/x_640.d/photo.jpg",
    ])
    func aWebFormatWhoseNameDoesNotNameTheSizeOnceHasNoOtherSizes(url: String) throws {
        #expect(try alternates(hit(webformat: url)).isEmpty)
    }

    @Test(arguments: [
        ("\"640\"", "null"), ("0", "427"), ("-640", "427"), ("640", "true"), ("1e300", "427"), ("640", "\"\""),
    ])
    func aWebFormatOfUnknownOrAbsurdSizeHasNoOtherSizes(width: String, height: String) throws {
        #expect(try alternates(hit(webformat: "https://cdn.example/w_640.jpg", width: width, height: height)).isEmpty)
    }

    @Test func onlyTheFileNameOfThePathIsRewrittenNeverTheHostOrTheQuery() throws {
        // `_640.` in a host (the name after the last `/` when the path is empty) would ask a host the API never
        // named; in the query it would change what the URL asks for.
        #expect(try alternates(hit(webformat: "http://img_640.localhost")).isEmpty)
        #expect(try alternates(hit(webformat: "http://img_640.localhost?q=1")).isEmpty)
        #expect(try alternates(hit(webformat: "https://cdn.example/a.jpg?size=b_640.jpg")).isEmpty)
        #expect(try alternates(hit(webformat: "https://cdn.example/a.jpg#b_640.jpg")).isEmpty)
        // The query and the fragment of a file name that names the size stay as they are.
        let sizes = try alternates(hit(webformat: "https://cdn.example/p/a_640.jpg?v=_640.2#x_640.y"))
        #expect(
            sizes.map(\.url) == [
                "https://cdn.example/p/a_180.jpg?v=_640.2#x_640.y", "https://cdn.example/p/a_340.jpg?v=_640.2#x_640.y",
            ])
    }

    @Test func aWebFormatThatIsNotHTTPHasNoOtherSizes() throws {
        #expect(try alternates(hit(webformat: "javascript:alert(1)//_640.jpg")).isEmpty)
        #expect(try alternates(hit(webformat: "file:///etc/passwd_640.jpg")).isEmpty)
    }

    @Test func theOtherSizesAreDownloadedWithTheRenditions() {
        let tile = RemoteImage(url: "https://cdn.example/t_640.jpg", width: 640, height: 427)
        let full = RemoteImage(url: "https://cdn.example/t_1280.jpg")
        let small = RemoteImage(url: "https://cdn.example/t_180.jpg", width: 270, height: 180)
        let result = SourceResult(
            title: "t", source: SourceDescription(name: "pixabay", label: "Pixabay", home: nil),
            variants: [SourceVariant(key: "original", label: "Original", query: "t")],
            items: [
                SourceItem(
                    sourceID: "1",
                    entries: [
                        .found(
                            caption: "", credit: nil, tile: tile, full: full, license: PixabaySource.license,
                            alternates: [small, tile])
                    ])
            ], fetchedAt: nil)
        #expect(result.remoteImageURLs == [tile.url, full.url, small.url])
    }
}
