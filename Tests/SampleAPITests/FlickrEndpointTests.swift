import Foundation
import SampleAPI
import Testing

private let key = SampleAPIServer.demoKey
private let urlExtras = FlickrSize.allCases.map { "url_\($0.rawValue)" }.joined(separator: ",")
private let photoKeys: Set<String> = [
    "id", "owner", "secret", "server", "farm", "title", "ispublic", "isfriend", "isfamily",
]
private let feedKeys: Set<String> = ["title", "link", "description", "modified", "generator", "items"]
private let feedItemKeys: Set<String> = [
    "title", "link", "media", "date_taken", "description", "published", "author", "author_id", "tags",
]

/// The JSON object `data` holds, or a recorded failure.
private func object(_ data: Data) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// `body` with Flickr's invalid `\'` escapes replaced, as clients of the feed do.
private func unquirked(_ body: Data) -> Data {
    Data(String(decoding: body, as: UTF8.self).replacingOccurrences(of: "\\'", with: "'").utf8)
}

@Suite("Flickr endpoints over HTTP")
struct FlickrEndpointTests {
    @Test func endpointsSitWhereTheProvidersPutThem() async throws {
        try await withServer { server in
            let baseURL = await server.baseURL
            #expect(await server.flickrEndpoint == "\(baseURL)/services/")
            #expect(await server.thumbnailsEndpoint == "\(baseURL)/api/v2/content/misc/media-coverages")
            let index = try await SocketHTTPClient.fetch("\(baseURL)/")
            #expect(index.text.contains("/services/rest/") && index.text.contains("media-coverages"))
        }
    }

    @Test func flickrSearchHasFlickrsShapeAndTypeDrift() async throws {
        try await withServer { server in
            let endpoint = await server.flickrEndpoint
            let baseURL = await server.baseURL
            let extras = "description,date_upload,owner_name,tags,o_dims,url_m,url_s"
            func search(page: Int, slash: String = "/") async throws -> HTTPExchange {
                try await SocketHTTPClient.fetch(
                    "\(endpoint)rest\(slash)?method=flickr.photos.search&api_key=\(key)&text=hamburg&per_page=5"
                        + "&page=\(page)&extras=\(extras)&format=json&nojsoncallback=1&sort=relevance&safe_search=1"
                )
            }
            let first = try await search(page: 1)
            #expect(first.status == 200)
            #expect(first.header("Content-Type") == "application/json")
            #expect(first.header("Content-Length") == String(first.body.count))
            #expect(first.text.hasPrefix(#"{"photos":{"page":1,"pages":"#))
            #expect(first.text.hasSuffix(#"]},"stat":"ok"}"#))
            #expect(try await search(page: 1, slash: "").body == first.body)
            #expect(try await search(page: 1).body == first.body)

            let catalog = FlickrCatalog()
            let listing = FlickrListing.search("hamburg")
            for page in [1, 2] {
                let response = page == 1 ? first : try await search(page: page)
                let root = try object(response.body)
                #expect(Set(root.keys) == ["photos", "stat"] && root["stat"] as? String == "ok")
                let photos = try #require(root["photos"] as? [String: Any])
                #expect(Set(photos.keys) == ["page", "pages", "perpage", "total", "photo"])
                #expect(isNumber(photos["page"]) && isNumber(photos["pages"]) && isNumber(photos["perpage"]))
                #expect(page == 1 ? isString(photos["total"]) : isNumber(photos["total"]), "total on page \(page)")
                let list = try #require(photos["photo"] as? [[String: Any]])
                #expect(list.count == 5)
                for photo in list {
                    let expectedKeys = photoKeys.union([
                        "description", "dateupload", "ownername", "tags", "o_width", "o_height", "url_m", "height_m",
                        "width_m", "url_s", "height_s", "width_s",
                    ])
                    #expect(Set(photo.keys) == expectedKeys)
                    for name in ["id", "owner", "secret", "server", "title", "dateupload", "ownername", "tags"] {
                        #expect(isString(photo[name]), "\(name)")
                    }
                    for name in ["farm", "ispublic", "isfriend", "isfamily"] {
                        #expect(isNumber(photo[name]), "\(name)")
                    }
                    for name in ["o_width", "o_height", "height_m", "width_m", "height_s", "width_s"] {
                        #expect(page == 1 ? isString(photo[name]) : isNumber(photo[name]), "\(name), page \(page)")
                    }
                    #expect((photo["description"] as? [String: Any]).map { Set($0.keys) } == ["_content"])
                }
                let decoded = try JSONDecoder().decode(FlickrPhotosResponse.self, from: response.body)
                let expected = catalog.page(
                    of: listing, page: page, perPage: 5, extras: extras.components(separatedBy: ","), baseURL: baseURL
                )
                #expect(decoded.photos == expected)
                #expect(decoded.stat == "ok")
            }
        }
    }

    @Test func flickrFailuresComeWithStatus200() async throws {
        let invalidKey = #"{"stat":"fail","code":100,"message":"Invalid API Key (Key has invalid format)"}"#
        let parameterless =
            #"{"stat":"fail","code":3,"message":"Parameterless searches have been disabled. "#
            + #"Please use flickr.photos.getRecent instead."}"#
        let search = "method=flickr.photos.search&api_key=\(key)"
        let cases: [(String, String)] = [
            ("method=flickr.photos.search&text=hamburg", invalidKey),
            ("method=flickr.photos.search&api_key=wrong&text=hamburg", invalidKey),
            ("method=flickr.photos.getRecent&api_key=", invalidKey),
            ("method=flickr.photos.licenses.getInfo", invalidKey),
            ("method=flickr.photos.licenses.getInfo&api_key=wrong", invalidKey),
            (
                "method=flickr.photos.getInfo&api_key=\(key)",
                #"{"stat":"fail","code":112,"message":"Method \"flickr.photos.getInfo\" not found"}"#
            ),
            ("api_key=\(key)", #"{"stat":"fail","code":112,"message":"Method \"\" not found"}"#),
            (search, parameterless),
            ("\(search)&text=&tags=", parameterless),
            ("\(search)&text=%20%20&tags=,", parameterless),
        ]
        try await withServer { server in
            let rest = "\(await server.flickrEndpoint)rest/"
            for (query, body) in cases {
                let response = try await SocketHTTPClient.fetch("\(rest)?\(query)&format=json&nojsoncallback=1")
                #expect(response.status == 200, "\(query)")
                #expect(response.text == body, "\(query)")
                #expect(response.header("Content-Type") == "application/json")
            }
            for (query, fails) in [
                ("text=hamburg&per_page=500&page=9", true), ("text=hamburg&per_page=500&page=8", false),
                ("tags=elbe&page=41", true), ("tags=elbe&page=40", false), ("text=x&per_page=1000&page=9", true),
                ("text=x&per_page=3&page=1334", true), ("text=x&per_page=3&page=1333", false),
            ] {
                let response = try await SocketHTTPClient.fetch("\(rest)?\(search)&\(query)")
                #expect(response.status == 200)
                let root = try object(response.body)
                #expect((root["stat"] as? String == "fail") == fails, "\(query)")
                if fails {
                    #expect(root["code"] as? Int == 20)
                    let message = root["message"] as? String ?? ""
                    #expect(message.hasPrefix("Sorry, the Flickr search API will not return more than 4000 photos"))
                }
            }
        }
    }

    @Test func licensesGetInfoAnswersFlickrsTable() async throws {
        try await withServer { server in
            let rest = "\(await server.flickrEndpoint)rest/"
            let response = try await SocketHTTPClient.fetch(
                "\(rest)?method=flickr.photos.licenses.getInfo&api_key=\(key)&format=json&nojsoncallback=1")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
            #expect(
                response.text.hasPrefix(
                    #"{"licenses":{"license":[{"id":"0","name":"All Rights Reserved","url":"https://www.flickrhelp.com/"#
                        + #"hc/en-us/articles/10710266545556-Using-Flickr-images-shared-by-other-members"},"#
                        + #"{"id":"1","name":"CC BY-NC-SA 2.0","url":"https://creativecommons.org/licenses/by-nc-sa/2.0/"},"#
                )
            )
            #expect(
                response.text.hasSuffix(
                    #"{"id":"16","name":"CC BY-NC-ND 4.0","url":"https://creativecommons.org/licenses/by-nc-nd/4.0/"}"#
                        + #"]},"stat":"ok"}"#
                )
            )
            let root = try object(response.body)
            #expect(Set(root.keys) == ["licenses", "stat"] && root["stat"] as? String == "ok")
            let table = try #require(root["licenses"] as? [String: Any])
            #expect(Set(table.keys) == ["license"])
            let rows = try #require(table["license"] as? [[String: Any]])
            #expect(rows.count == 17)
            for row in rows {
                #expect(Set(row.keys) == ["id", "name", "url"])
                #expect(isString(row["id"]) && isString(row["name"]) && isString(row["url"]))
            }
            let decoded = try JSONDecoder().decode(FlickrLicensesResponse.self, from: response.body)
            #expect(decoded == FlickrLicensesResponse(licenses: FlickrCatalog.licenses))
            #expect(Set(decoded.licenses.map(\.id)).isSuperset(of: (11...16).map(String.init)))

            let numeric = Data(
                #"{"licenses":{"license":[{"id":4,"name":"Attribution License","url":""}]},"stat":"ok"}"#.utf8)
            #expect(try JSONDecoder().decode(FlickrLicensesResponse.self, from: numeric).licenses.first?.id == "4")
        }
    }

    @Test func searchHonoursTheLicenseFilterAndGetRecentIgnoresIt() async throws {
        try await withServer { server in
            let rest = "\(await server.flickrEndpoint)rest/"
            let baseURL = await server.baseURL
            func list(_ query: String) async throws -> FlickrPhotoList {
                let response = try await SocketHTTPClient.fetch("\(rest)?api_key=\(key)&\(query)")
                return try JSONDecoder().decode(FlickrPhotosResponse.self, from: response.body).photos
            }
            let search = "method=flickr.photos.search&text=hamburg&per_page=20&extras=license"
            let plain = try await list(search)
            let licenses = Set(plain.photos.compactMap(\.license))
            #expect(plain.photos.count == 20 && licenses.contains("0"))
            #expect(licenses.contains { (1...6).contains(Int($0) ?? 0) })
            #expect(licenses.contains { (7...10).contains(Int($0) ?? 0) })
            #expect(licenses.contains { (Int($0) ?? 0) > 10 })

            let filtered = try await list("\(search)&license=4,11")
            #expect(filtered.photos.count == 20)
            #expect(filtered.photos.allSatisfy { ["4", "11"].contains($0.license ?? "") })
            #expect(filtered.total < plain.total)
            let expected = FlickrCatalog().page(
                of: .search("hamburg"), page: 1, perPage: 20, extras: ["license"], licenses: ["4", "11"],
                baseURL: baseURL)
            #expect(filtered == expected)
            #expect(try await list("\(search)&license=4,%2011,99") == expected)
            #expect(try await list("\(search)&license=") == plain)

            let unknown = try await list("\(search)&license=99,abc")
            #expect(unknown.total == 0 && unknown.pages == 0 && unknown.photos.isEmpty)

            let recent = "method=flickr.photos.getRecent&per_page=20&extras=license"
            let ignored = try await list("\(recent)&license=4")
            #expect(try await list(recent) == ignored)
            #expect(ignored.total == 1000 && ignored.photos.contains { $0.license != "4" })
        }
    }

    @Test func getRecentPagesThroughAThousandPhotos() async throws {
        try await withServer { server in
            let rest = "\(await server.flickrEndpoint)rest"
            func recent(_ query: String) async throws -> FlickrPhotoList {
                let response = try await SocketHTTPClient.fetch(
                    "\(rest)?method=flickr.photos.getRecent&api_key=\(key)&\(query)")
                return try JSONDecoder().decode(FlickrPhotosResponse.self, from: response.body).photos
            }
            let defaults = try await recent("format=json")
            #expect(defaults.page == 1 && defaults.perPage == 100 && defaults.pages == 10 && defaults.total == 1000)
            #expect(defaults.photos.count == 100)
            let clamped = try await recent("per_page=1000&page=2")
            #expect(clamped.perPage == 500 && clamped.pages == 2 && clamped.photos.count == 500)
            let last = try await recent("per_page=300&page=4")
            #expect(last.pages == 4 && last.photos.count == 100)
            #expect(try await recent("per_page=300&page=5").photos.isEmpty)
            #expect(try await recent("per_page=abc&page=0").perPage == 100)
            let catalog = FlickrCatalog()
            let baseURL = await server.baseURL
            #expect(last == catalog.page(of: .recent, page: 4, perPage: 300, baseURL: baseURL))
            #expect(try await recent("per_page=10&page=7&extras=url_q").photos.allSatisfy { $0.sizes.count == 1 })
        }
    }

    @Test func flickrKeyAndCountsAreConfigurable() async throws {
        let configuration = SampleAPIConfiguration(flickrKey: "flickr-custom", flickrCounts: ["elbe bridge": 7])
        try await withServer(configuration) { server in
            let rest = "\(await server.flickrEndpoint)rest/"
            let search = "\(rest)?method=flickr.photos.search&api_key=flickr-custom"
            let custom = try await SocketHTTPClient.fetch("\(search)&tags=elbe,bridge")
            let list = try JSONDecoder().decode(FlickrPhotosResponse.self, from: custom.body).photos
            #expect(list.total == 7 && list.pages == 1 && list.photos.count == 7)
            let demo = try await SocketHTTPClient.fetch("\(rest)?method=flickr.photos.search&api_key=\(key)&text=elbe")
            #expect(try object(demo.body)["code"] as? Int == 100)
            let nothing = try await SocketHTTPClient.fetch("\(search)&text=nothing")
            #expect(nothing.text.hasPrefix(#"{"photos":{"page":1,"pages":0,"perpage":100,"total":"0","photo":[]}"#))
        }
    }

    @Test func everyFlickrImageURLOfAPageServesItsReportedSize() async throws {
        try await withServer { server in
            let rest = "\(await server.flickrEndpoint)rest/"
            var checks: [(url: String, width: Int, height: Int)] = []
            for (query, page) in [("text=hamburg+graffiti", 1), ("tags=hamburg", 2)] {
                let response = try await SocketHTTPClient.fetch(
                    "\(rest)?method=flickr.photos.search&api_key=\(key)&\(query)&per_page=6&page=\(page)"
                        + "&extras=\(urlExtras),o_dims"
                )
                let photos = try JSONDecoder().decode(FlickrPhotosResponse.self, from: response.body).photos.photos
                #expect(photos.count == 6)
                for photo in photos {
                    #expect(photo.sizes.count == FlickrSize.allCases.count)
                    checks += photo.sizes.map { ($0.url, $0.width, $0.height) }
                    #expect(photo.originalWidth == photo.size(.o)?.width)
                }
            }
            let recent = try await SocketHTTPClient.fetch(
                "\(rest)?method=flickr.photos.getRecent&api_key=\(key)&per_page=8&extras=url_sq,url_m,url_l"
            )
            for photo in try JSONDecoder().decode(FlickrPhotosResponse.self, from: recent.body).photos.photos {
                checks += photo.sizes.map { ($0.url, $0.width, $0.height) }
            }
            #expect(checks.count == 156, "2 searches of 6 photos in 11 sizes, 8 recent photos in 3")
            try await expectJPEGs(checks)
            let cached = try await SocketHTTPClient.fetch(checks[0].url)
            #expect(cached.header("Cache-Control") == "public, max-age=86400")
        }
    }

    @Test func flickrImagesSurviveARestartAndRejectStrangers() async throws {
        let photo = FlickrCatalog().photo(at: 2, in: .search("hamburg"), extras: ["url_z"], baseURL: "")
        let path = try #require(photo.size(.z)?.url)
        #expect(path.hasPrefix("/flickr/65535/"))
        try await withServer { server in
            let baseURL = await server.baseURL
            let image = try await SocketHTTPClient.fetch(baseURL + path)
            #expect(image.status == 200 && jpegDimensions(image.body).map { $0.width == photo.size(.z)?.width } == true)
            let stem = "/flickr/65535/\(photo.id)_\(photo.secret)"
            let missing = [
                "\(stem)_h.jpg", "\(stem)_k.jpg", "\(stem).png", "/flickr/65534/\(photo.id)_\(photo.secret).jpg",
                "/flickr/65535/\(photo.id)_ffffffffff.jpg", "/flickr/65535/\(photo.id).jpg", "/flickr/65535",
                "/flickr/65535/x/\(photo.id)_\(photo.secret).jpg",
            ]
            for path in missing {
                let response = try await SocketHTTPClient.fetch(baseURL + path)
                #expect(response.status == 404, "\(path)")
                #expect(response.header("Content-Type")?.hasPrefix("text/plain") == true)
            }
        }
    }

    @Test func publicFeedHasFlickrsShapeAndItsEscapingQuirk() async throws {
        try await withServer { server in
            let feedURL = "\(await server.flickrEndpoint)feeds/photos_public.gne"
            let baseURL = await server.baseURL
            let query = "format=json&nojsoncallback=1&tags=hamburg,graffiti&tagmode=all"
            let response = try await SocketHTTPClient.fetch("\(feedURL)?\(query)")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.header("Content-Length") == String(response.body.count))
            #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: response.body) }
            #expect(throws: (any Error).self) { try JSONDecoder().decode(FlickrFeed.self, from: response.body) }
            #expect(response.text.contains(#"\'s "#))
            #expect(!response.text.replacingOccurrences(of: #"\'"#, with: "").contains("'"), "every ' is escaped")

            let fixed = unquirked(response.body)
            let root = try object(fixed)
            #expect(Set(root.keys) == feedKeys)
            #expect(root["title"] as? String == "Recent Uploads tagged hamburg,graffiti")
            let items = try #require(root["items"] as? [[String: Any]])
            #expect(items.count == 20)
            for item in items {
                #expect(Set(item.keys) == feedItemKeys)
                #expect((item["media"] as? [String: Any]).map { Set($0.keys) } == ["m"])
                #expect(feedItemKeys.subtracting(["media"]).allSatisfy { isString(item[$0]) })
            }
            let feed = try JSONDecoder().decode(FlickrFeed.self, from: fixed)
            #expect(feed == FlickrCatalog().feed(tags: "hamburg,graffiti", baseURL: baseURL))
            let quirky = feed.items.filter { $0.title.contains("'") }
            #expect(quirky.count >= 2)
            for item in quirky {
                let escapedTitle = item.title.replacingOccurrences(of: "'", with: "\\'")
                #expect(response.text.contains(#""title":"\#(escapedTitle)""#), "\(escapedTitle)")
            }

            var checks: [(url: String, width: Int, height: Int)] = []
            for item in feed.items {
                let pattern = #".*<img src="[^"]+" width="(\d+)" height="(\d+)" alt="[^"]*" /></a></p> "#
                let size = try #require(captures(pattern, in: item.description))
                #expect(item.media.m.hasPrefix("\(baseURL)/flickr/65535/") && item.media.m.hasSuffix("_m.jpg"))
                checks.append((item.media.m, Int(size[0]) ?? 0, Int(size[1]) ?? 0))
            }
            try await expectJPEGs(checks)

            let everyone = try await SocketHTTPClient.fetch(feedURL)
            let everyoneFeed = try JSONDecoder().decode(FlickrFeed.self, from: unquirked(everyone.body))
            #expect(everyoneFeed.items.count == 20 && everyoneFeed.title == "Uploads from everyone")
            let nothing = try await SocketHTTPClient.fetch(
                "\(feedURL)?format=json&nojsoncallback=1&tags=nothing&tagmode=any")
            #expect(try JSONDecoder().decode(FlickrFeed.self, from: unquirked(nothing.body)).items.isEmpty)
        }
    }
}
