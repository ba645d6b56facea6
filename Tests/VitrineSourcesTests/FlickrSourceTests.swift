import Foundation
import Testing
import VitrineBasics

@testable import VitrineSources
@testable import VitrineStore

@Suite struct FlickrSourceTests {
    static func response(_ json: String, status: Int = 200) -> APIResponse {
        APIResponse(status: status, body: Array(json.utf8), fetchedAt: Date(timeIntervalSince1970: 0), fromCache: false)
    }

    @Test func readsPhotosWithNumbersThatArriveAsStrings() throws {
        let json = """
            {"photos":{"page":1,"pages":"3","perpage":2,"total":"6","photo":[
              {"id":"51713985825","owner":"143425468@N05","secret":"77458dcabb","server":"65535","farm":66,
               "title":"Harbour","ownername":"Anna","url_z":"https://live.staticflickr.com/65535/51713985825_77458dcabb_z.jpg",
               "width_z":"640","height_z":"427","url_l":"https://live.staticflickr.com/65535/51713985825_x_b.jpg",
               "width_l":1024,"height_l":683},
              {"id":"2","owner":"o@N01","secret":"abc123","server":"1","title":"Built"}
            ]},"stat":"ok"}
            """
        let page = try FlickrSource.decodeREST(Self.response(json), page: 1)
        #expect(page.pages == 3 && page.items.count == 2)
        guard case .found(let caption, let credit, let tile, let full, _, _, _, _) = page.items[0].entries[0] else {
            Issue.record("photo 1 decodes")
            return
        }
        #expect(caption == "Harbour" && credit?.name == "Anna")
        #expect(credit?.url == "https://www.flickr.com/photos/143425468@N05/51713985825")
        #expect(tile.width == 640 && tile.height == 427 && full.width == 1024)
        guard case .found(_, let builtCredit, let builtTile, let builtFull, _, _, _, _) = page.items[1].entries[0]
        else {
            return
        }
        #expect(builtTile.url == "https://live.staticflickr.com/1/2_abc123_z.jpg")
        #expect(builtFull.url == "https://live.staticflickr.com/1/2_abc123_b.jpg")
        #expect(builtCredit?.name == "o@N01")
    }

    /// An `ownername` of "" or only spaces names nobody: the credit falls back as for a missing name (the owner's
    /// id, else "a Flickr member"), never "Photo by  on Flickr".
    @Test(arguments: [("\"\"", "o@N01"), ("\"   \"", "o@N01"), ("\" \\n\\t \"", "o@N01"), ("\" Anna \"", "Anna")])
    func anEmptyOwnerNameFallsBackAsAMissingOne(ownername: String, name: String) throws {
        let json = """
            {"photos":{"page":1,"pages":1,"photo":[
              {"id":"2","owner":"o@N01","secret":"abc123","server":"1","title":"Built","ownername":\(ownername)},
              {"id":"3","owner":"../x","secret":"abc123","server":"1","title":"No owner","ownername":\(ownername)}
            ]},"stat":"ok"}
            """
        let page = try FlickrSource.decodeREST(Self.response(json), page: 1)
        let names = page.items.map { item -> String? in
            guard case .found(_, let credit, _, _, _, _, _, _) = item.entries[0] else { return nil }
            return credit?.name
        }
        #expect(names == [name, name == "Anna" ? "Anna" : "a Flickr member"])
    }

    @Test func offersTheOtherSizesTheExtrasGiveOnceEachWidth() throws {
        let base = "https://live.staticflickr.com/65535/7_ab12"
        let json = """
            {"photos":{"page":1,"pages":1,"photo":[
              {"id":"7","owner":"o@N01","secret":"ab12","server":"65535","title":"Sizes",
               "url_z":"\(base)_z.jpg","width_z":640,"height_z":427,
               "url_n":"\(base)_n.jpg","width_n":"320","height_n":"213",
               "url_c":"\(base)_c.jpg","width_c":800,"height_c":533,
               "url_l":"\(base)_b.jpg","width_l":1024,"height_l":683},
              {"id":"8","owner":"o@N01","secret":"ab12","server":"65535","title":"Same widths, no sizes, bad URLs",
               "url_z":"\(base)_z.jpg","width_z":640,"height_z":427,
               "url_n":"\(base)_n.jpg","width_n":640,"height_n":427,
               "url_c":"javascript:alert(1)","width_c":800,"height_c":533,
               "url_l":"\(base)_b.jpg","width_l":1024,"height_l":683},
              {"id":"9","owner":"o@N01","secret":"ab12","server":"65535","title":"No size",
               "url_z":"\(base)_z.jpg","width_z":640,"height_z":427,"url_n":"\(base)_n.jpg",
               "url_c":"\(base)_c.jpg","width_c":0,"height_c":533}
            ]},"stat":"ok"}
            """
        let page = try FlickrSource.decodeREST(Self.response(json), page: 1)
        let alternates = page.items.map { item -> [String] in
            guard case .found(_, _, _, _, _, _, let alternates, _) = item.entries[0] else { return ["not found"] }
            return alternates.map { "\($0.url.suffix(6)) \($0.width ?? 0)x\($0.height ?? 0)" }
        }
        #expect(alternates == [["_n.jpg 320x213", "_c.jpg 800x533"], [], []])
    }

    @Test(arguments: [
        (100, "Invalid API Key (Key has invalid format)", FailureKind.keyProblem),
        (105, "Service currently unavailable", .unavailable),
        (3, "Parameterless searches have been disabled.", .unavailable),
    ])
    func failureArrivesWithHTTP200AndBecomesAClearError(code: Int, message: String, status: FailureKind) {
        let json = "{\"stat\":\"fail\",\"code\":\(code),\"message\":\"\(message)\"}"
        #expect {
            try FlickrSource.decodeREST(Self.response(json), page: 1)
        } throws: { error in
            let error = error as? SourceError
            return error?.kind == status && error?.sentence.contains(message) == true
        }
    }

    @Test func skipsPhotosWithNothingToShow() throws {
        let json = """
            {"photos":{"page":1,"pages":1,"photo":[{"id":"x1"},{"id":"5","url_z":"javascript:alert(1)"},
             {"id":"6","server":"../..","secret":"zz"}]},"stat":"ok"}
            """
        let page = try FlickrSource.decodeREST(Self.response(json), page: 1)
        #expect(page.items.isEmpty && page.warnings.count == 3)
    }

    @Test func asksForTheRightMethodAndKeepsTheKeyOutOfThePublicURL() {
        let search = FlickrSource(
            term: "Hamburg harbour", itemCount: 25, key: "FKEY1234", endpoint: "http://h/services")
        let url = URLComponents(string: search.request(page: 2, perPage: 25).url)!
        #expect(url.path == "/services/rest/")
        #expect(url.query("method") == "flickr.photos.search" && url.query("text") == "Hamburg harbour")
        #expect(url.query("page") == "2" && url.query("nojsoncallback") == "1")
        #expect(!search.request(page: 1, perPage: 25).publicURL.contains("FKEY1234"))
        let recent = FlickrSource(term: nil, itemCount: 25, key: "k", endpoint: "http://h/services/")
        #expect(
            URLComponents(string: recent.request(page: 1, perPage: 25).url)!.query("method")
                == "flickr.photos.getRecent")
        let feed = FlickrSource(term: "Hamburg, harbour!", itemCount: 20, key: nil, endpoint: "http://h/services/")
        let feedURL = URLComponents(string: feed.feedRequest().url)!
        #expect(feedURL.path == "/services/feeds/photos_public.gne" && feedURL.query("tags") == "hamburg,harbour")
    }

    @Test func mendsTheFeedsEscapedQuotesAndSwapsInLargerSizes() throws {
        let feed = #"""
            {"title":"Recent Uploads","items":[
              {"title":"Hamburg\'s harbour","link":"https://www.flickr.com/photos/o@N01/54335630356/",
               "media":{"m":"https://live.staticflickr.com/65535/54335630356_ed0d540d24_m.jpg"},
               "description":" <p><img src=\"x\" width=\"240\" height=\"160\" alt=\"\" /></p> ",
               "author":"nobody@flickr.com (\"Jan \"J\" K\")","tags":"hamburg harbour"},
              {"title":"no media","media":{}}
            ]}
            """#
        let (items, warnings) = try FlickrSource.decodeFeed(Array(feed.utf8))
        #expect(items.count == 1 && warnings.count == 1)
        guard case .found(let caption, let credit, let tile, let full, _, _, _, _) = items[0].entries[0] else { return }
        #expect(caption == "Hamburg's harbour")
        #expect(items[0].sourceID == "54335630356")
        #expect(tile.url.hasSuffix("_z.jpg") && full.url.hasSuffix("_b.jpg"))
        #expect(tile.width == 640 && tile.height == 427 && full.width == 1024 && full.height == 683)
        #expect(credit?.url == "https://www.flickr.com/photos/o@N01/54335630356/")
        #expect(credit?.name == "Jan \"J\" K")
    }

    @Test func theFeedsSizeIsSwappedInTheFileNameOnlyNeverInTheHostOrTheQuery() throws {
        func feed(_ small: String) -> [UInt8] {
            Array(#"{"items":[{"title":"t","media":{"m":"\#(small)"}}]}"#.utf8)
        }
        // `_m.` only in the host, or only in the query: nothing says which file the other sizes are.
        for small in ["http://img_m.localhost/1/2.jpg", "https://live.example/1/2.jpg?x=_m.y"] {
            let (items, warnings) = try FlickrSource.decodeFeed(feed(small))
            #expect(items.isEmpty && warnings.count == 1, "\(small)")
        }
        let (items, _) = try FlickrSource.decodeFeed(feed("https://live_m.example/1/2_m.jpg?v=_m.2"))
        guard case .found(_, _, let tile, let full, _, _, _, _) = try #require(items.first).entries[0] else {
            Issue.record("the item was not found")
            return
        }
        #expect(tile.url == "https://live_m.example/1/2_z.jpg?v=_m.2")
        #expect(full.url == "https://live_m.example/1/2_b.jpg?v=_m.2")
    }

    @Test func theQuoteMendingLeavesOtherEscapesAlone() {
        let mended = FlickrSource.mendQuoteEscapes(Array(#"{"a":"it\'s \\'x\' \"q\" \\"}"#.utf8))
        #expect(String(decoding: mended, as: UTF8.self) == #"{"a":"it's \\'x' \"q\" \\"}"#)
    }
}

@Suite struct ThumbnailSourceTests {
    @Test func buildsImageURLsFromThumbnailParts() throws {
        let json = """
            [{"id":"coverage-2cc583","title":"A talk","thumbnail":{"id":"img-1","version":1,
              "domain":"https://cimg.example.org","basePath":"images/img-9a39","key":"image.jpg",
              "qualities":[10,20,30,40],"aspectRatio":1.5},"coverageURL":"https://news.example/a",
              "publishedBy":"Entrepreneur India"},
             {"id":"c2","title":"No qualities","thumbnail":{"domain":"https://cimg.example.org/","basePath":"images/b",
              "key":"image.jpg","qualities":[],"aspectRatio":0.8},"coverageURL":"javascript:x"},
             {"id":"c3","thumbnail":{"domain":"file:///etc","basePath":"x","key":"passwd"}},
             {"id":"c4","title":"no thumbnail"}]
            """
        let (items, warnings) = try ThumbnailSource.decode(Array(json.utf8))
        #expect(items.count == 2 && warnings.count == 2)
        guard case .found(let caption, let credit, let tile, let full, _, _, _, _) = items[0].entries[0] else { return }
        #expect(
            caption == "A talk"
                && credit == Credit(name: "Entrepreneur India", url: "https://news.example/a", role: .publication))
        #expect(full.url == "https://cimg.example.org/images/img-9a39/0/image.jpg")
        #expect(tile.url == "https://cimg.example.org/images/img-9a39/40/image.jpg")
        #expect(tile.width == 640 && tile.height == 427)
        guard case .found(_, let second, let secondTile, _, _, _, _, _) = items[1].entries[0] else { return }
        #expect(secondTile.url == "https://cimg.example.org/images/b/0/image.jpg")
        #expect(second == nil)
    }

    @Test(arguments: ["{}", "not json", "{\"items\": []}"])
    func rejectsAnythingButAnArray(body: String) {
        #expect(throws: SourceError.self) { try ThumbnailSource.decode(Array(body.utf8)) }
    }

    @Test(arguments: [
        ("nobody@flickr.com (\"Jan K\")", "Jan K"), ("nobody@flickr.com (Jan K)", "Jan K"),
        ("nobody@flickr.com (\"Jan \"J\" K\")", "Jan \"J\" K"),
        ("nobody@flickr.com (Anna (Hamburg))", "Anna (Hamburg)"),
        ("Jan K", "Jan K"), ("nobody@flickr.com", "a Flickr member"), ("nobody@flickr.com ()", "a Flickr member"),
        ("", "a Flickr member"),
    ])
    func creditsTheFeedsAuthorInEveryFormItIsSent(author: String, name: String) {
        #expect(FlickrSource.authorName(author) == name)
    }
}
