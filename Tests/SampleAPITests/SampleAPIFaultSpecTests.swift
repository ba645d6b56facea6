import Foundation
import SampleAPI
import Testing

@Suite("Sample API fault specs (no server)")
struct SampleAPIFaultSpecTests {
    private static let internalError = "[ERROR 500] Internal Server Error (injected by the sample API)."
    private static let unavailable = "[ERROR 503] Service Unavailable (injected by the sample API)."

    @Test(arguments: [
        ("api:429:3", SampleAPIFault(.rateLimited(retryAfter: nil), on: .api, times: 3)),
        ("images:500", SampleAPIFault(.status(500, body: internalError), on: .images)),
        ("all:delay=50", SampleAPIFault(.delay(milliseconds: 50))),
        (
            "api:retry-after-date=2:1",
            SampleAPIFault(.rateLimited(retryAfter: .date(secondsFromNow: 2)), on: .api, times: 1)
        ),
        ("api:retry-after=7:*", SampleAPIFault(.rateLimited(retryAfter: .seconds(7)), on: .api)),
        (
            "API,q=red%20Flower:hostile:2",
            SampleAPIFault(.hostileResults, on: .api, queryContains: "red Flower", times: 2)
        ),
        ("images:oversized=20m", SampleAPIFault(.oversized(bytes: 20 << 20), on: .images)),
        ("images:oversized=1500", SampleAPIFault(.oversized(bytes: 1500), on: .images)),
        ("all:stall=5:1", SampleAPIFault(.stall(seconds: 5), times: 1)),
        ("api:trickle=300", SampleAPIFault(.trickle(bytesPerSecond: 300), on: .api)),
        ("images:truncated-image=600:2", SampleAPIFault(.truncatedImage(bytes: 600), on: .images, times: 2)),
        ("api:truncate", SampleAPIFault(.truncatedBody, on: .api)),
        ("images:reset:1", SampleAPIFault(.resetMidBody, on: .images, times: 1)),
        ("images:WRONG-TYPE", SampleAPIFault(.wrongContentType, on: .images)),
        ("api:malformed-json:10", SampleAPIFault(.malformedJSON, on: .api, times: 10)),
        ("flickr:503:2", SampleAPIFault(.status(503, body: unavailable), on: .flickr, times: 2)),
        ("Flickr,q=hamburg:truncate", SampleAPIFault(.truncatedBody, on: .flickr, queryContains: "hamburg")),
        ("feed:reset:1", SampleAPIFault(.resetMidBody, on: .feed, times: 1)),
        ("thumbnails:delay=20", SampleAPIFault(.delay(milliseconds: 20), on: .thumbnails)),
        ("THUMBNAILS:malformed-json:*", SampleAPIFault(.malformedJSON, on: .thumbnails)),
        (
            "commons,q=hafen:503:1",
            SampleAPIFault(.status(503, body: unavailable), on: .commons, queryContains: "hafen", times: 1)
        ),
    ])
    func parsesGoodSpecs(spec: String, expected: SampleAPIFault) throws {
        let fault = try SampleAPIFault.parse(spec)
        #expect(fault == expected)
        #expect(try SampleAPIFault.parse(fault.description) == fault)
    }

    @Test func descriptionIsTheSpec() throws {
        let dated = SampleAPIFault(.rateLimited(retryAfter: .date(secondsFromNow: 2)), on: .api, times: 1)
        #expect(dated.description == "api:retry-after-date=2:1")
        let filtered = SampleAPIFault(.hostileResults, on: .api, queryContains: "a:b, c")
        #expect(filtered.description == "api,q=a%3Ab%2C%20c:hostile")
        #expect(SampleAPIFault(.status(503, body: "custom"), on: .images, times: 4).description == "images:503:4")
        let unavailable = "[ERROR 503] Service Unavailable (injected by the sample API)."
        #expect(try SampleAPIFault.parse("all:503").kind == .status(503, body: unavailable))
    }

    @Test(arguments: [
        ("", "must look like TARGET:KIND or TARGET:KIND:COUNT"),
        ("api", "must look like TARGET:KIND or TARGET:KIND:COUNT"),
        ("api:500:3:4", "must look like TARGET:KIND or TARGET:KIND:COUNT"),
        (":500", "must look like TARGET:KIND or TARGET:KIND:COUNT"),
        (
            "web:500",
            #"Unknown fault target "web" in "web:500"; expected api, flickr, feed, thumbnails, picsum, unsplash, openverse, commons, albums, images or all."#
        ),
        ("rest:500", #"Unknown fault target "rest""#),
        ("api,x=1:500", #"Unknown fault option "x=1""#),
        ("api,q=:500", "needs non-empty, validly percent-encoded text"),
        ("api,q=%zz:500", "needs non-empty, validly percent-encoded text"),
        ("api:teapot", #"Unknown fault kind "teapot" in "api:teapot"; expected delay=MS"#),
        ("api:truncate=1", #"Unknown fault kind "truncate=1""#),
        ("api:delay", #"The fault kind "delay" in "api:delay" needs a value"#),
        ("api:delay=-5", "must be a whole number of milliseconds from 0 to 600000"),
        ("api:delay=abc", #"The value "abc" of delay"#),
        ("api:retry-after=1.5", "must be a whole number of seconds from 0 to 86400"),
        ("api:stall=0", "must be a whole number of seconds from 1 to 3600"),
        ("api:trickle=0", "must be a whole number of bytes a second from 1 to 1000000"),
        ("images:truncated-image", #"The fault kind "truncated-image" in "images:truncated-image" needs a value"#),
        ("api:oversized=0", "must be a positive whole number of bytes up to 1 TiB"),
        ("api:oversized=2x", "must be a positive whole number of bytes up to 1 TiB"),
        ("api:oversized=2000g", "must be a positive whole number of bytes up to 1 TiB"),
        ("api:oversized", "needs a size"),
        ("api:100", "is outside 200 to 599"),
        ("api:500:0", #"The count "0" in "api:500:0" must be a positive whole number or *."#),
        ("api:500:many", #"The count "many""#),
    ])
    func rejectsBadSpecsWithOneSentence(spec: String, fragment: String) {
        do {
            let fault = try SampleAPIFault.parse(spec)
            Issue.record("\(spec.debugDescription) parsed as \(fault)")
        } catch let error as SampleAPIFaultSpecError {
            #expect(error.message.contains(fragment), "\(error.message)")
            #expect(error.message.hasSuffix("."))
            #expect(error.message.first?.isUppercase == true)
            #expect(!error.message.contains("\n"))
            #expect(error.localizedDescription == error.message)
            #expect(error.description == error.message)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func targetsAndQueryFilters() {
        func request(_ path: String, q: String? = nil) -> SampleAPIRequest {
            SampleAPIRequest(method: "GET", path: path, query: q.map { ["q": $0] } ?? [:])
        }
        let api = SampleAPIFault(.truncatedBody, on: .api)
        #expect(api.matches(request("/api/")) && api.matches(request("/api")))
        #expect(!api.matches(request("/api/extra")) && !api.matches(request("/get/1-city01_640.jpg")))
        let images = SampleAPIFault(.truncatedBody, on: .images)
        #expect(images.matches(request("/get/1-city01_640.jpg")) && images.matches(request("/photo/x")))
        #expect(!images.matches(request("/api/")) && !images.matches(request("/photos/a-1/")))
        let all = SampleAPIFault(.truncatedBody)
        #expect(all.matches(request("/")) && all.matches(request("/redirect-chain/2")))
        let filtered = SampleAPIFault(.truncatedBody, on: .api, queryContains: "Graffiti")
        #expect(filtered.matches(request("/api/", q: "hamburg graffiti")))
        #expect(!filtered.matches(request("/api/", q: "hamburg")) && !filtered.matches(request("/api/")))
    }

    @Test func targetsOfTheFlickrAndThumbnailRoutes() {
        func request(_ path: String, _ query: [String: String] = [:]) -> SampleAPIRequest {
            SampleAPIRequest(method: "GET", path: path, query: query)
        }
        let thumbnailsPath = "/api/v2/content/misc/media-coverages"
        let feedPath = "/services/feeds/photos_public.gne"
        let flickr = SampleAPIFault(.truncatedBody, on: .flickr)
        #expect(flickr.matches(request("/services/rest/")) && flickr.matches(request("/services/rest")))
        #expect(!flickr.matches(request(feedPath)) && !flickr.matches(request("/services/rest/x")))
        let feed = SampleAPIFault(.truncatedBody, on: .feed)
        #expect(feed.matches(request(feedPath)) && !feed.matches(request("/services/rest/")))
        let thumbnails = SampleAPIFault(.truncatedBody, on: .thumbnails)
        #expect(thumbnails.matches(request(thumbnailsPath)) && thumbnails.matches(request(thumbnailsPath + "/")))
        #expect(!thumbnails.matches(request("/api/")))
        #expect(!SampleAPIFault(.truncatedBody, on: .api).matches(request(thumbnailsPath)))
        let images = SampleAPIFault(.truncatedBody, on: .images)
        #expect(images.matches(request("/flickr/65535/51234567101_0123456789_m.jpg")))
        #expect(images.matches(request("/cimg/images/img-x/0/image.jpg")))
        #expect(!images.matches(request(feedPath)) && !images.matches(request(thumbnailsPath)))

        let text = SampleAPIFault(.truncatedBody, on: .flickr, queryContains: "elbe")
        #expect(text.matches(request("/services/rest/", ["text": "Elbe bridge"])))
        #expect(text.matches(request("/services/rest/", ["tags": "hamburg,elbe"])))
        #expect(!text.matches(request("/services/rest/", ["method": "flickr.photos.getRecent"])))
        let tags = SampleAPIFault(.truncatedBody, on: .feed, queryContains: "graffiti")
        #expect(tags.matches(request(feedPath, ["tags": "hamburg,graffiti"])) && !tags.matches(request(feedPath)))
    }
}
