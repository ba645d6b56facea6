import Foundation
import Testing

@testable import SampleAPI

private let contact = ["User-Agent": "Vitrine/1.0 (ops@example.org) libcurl"]
private let pageMembers = ["pageid", "ns", "title", "index", "imagerepository", "imageinfo"]
private let clientFields = "ObjectName|Artist|Credit|LicenseShortName|LicenseUrl|AttributionRequired|UsageTerms"

/// The parameters Vitrine's Commons source sends, with `changes` added or replacing them (nil removes one).
private func parameters(_ term: String, _ changes: [String: String?] = [:]) -> [(String, String)] {
    var list = [
        ("action", "query"), ("format", "json"), ("formatversion", "2"), ("generator", "search"),
        ("gsrsearch", term), ("gsrnamespace", "6"), ("gsrlimit", "10"), ("prop", "imageinfo"),
        ("iiprop", "url|size|mime|extmetadata"), ("iiurlwidth", "1280"), ("iiextmetadatafilter", clientFields),
    ]
    for (name, value) in changes.sorted(by: { $0.key < $1.key }) {
        list.removeAll { $0.0 == name }
        if let value { list.append((name, value)) }
    }
    return list
}

/// Wikimedia Commons' file search and uploads over HTTP: the answer's shape and types, paging by `continue`, the
/// limits, `imageinfo`'s parameters, the special files, the User-Agent policy, the throttle, the errors, the
/// images and the fault rules.
@Suite("Commons routes over HTTP")
struct CommonsRoutesTests {
    private func search(
        _ server: SampleAPIServer, _ parameters: [(String, String)], headers: [String: String] = contact
    ) async throws -> HTTPExchange {
        let allowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+|"))
        let query = parameters.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)"
        }
        return try await SocketHTTPClient.fetch(
            "\(await server.commonsEndpoint)api.php?\(query.joined(separator: "&"))", headers: headers)
    }

    private func object(_ response: HTTPExchange) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any], "\(response.text)")
    }

    private func pages(_ response: HTTPExchange) throws -> [[String: Any]] {
        let query = try #require(try object(response)["query"] as? [String: Any])
        return try #require(query["pages"] as? [[String: Any]])
    }

    private func imageInfo(_ page: [String: Any]) throws -> [String: Any] {
        let list = try #require(page["imageinfo"] as? [[String: Any]])
        #expect(list.count == 1)
        return try #require(list.first)
    }

    private func metadata(_ page: [String: Any]) throws -> [String: [String: Any]] {
        try #require(try imageInfo(page)["extmetadata"] as? [String: [String: Any]])
    }

    @Test func theAnswerHasMediaWikisShapeAndTypes() async throws {
        try await withServer { server in
            let response = try await search(server, parameters("hafen"))
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
            let body = try object(response)
            #expect(Set(body.keys) == ["batchcomplete", "continue", "query"])
            #expect(
                response.text.hasPrefix(#"{"batchcomplete":true,"continue":{"gsroffset":10,"continue":"gsroffset||"},"#)
            )
            let list = try pages(response)
            #expect(list.count == 10)
            #expect(list.compactMap { $0["pageid"] as? Int } == list.compactMap { $0["pageid"] as? Int }.sorted())
            #expect(Set(list.compactMap { $0["index"] as? Int }) == Set(1...10))
            let baseURL = await server.baseURL
            let expected = CommonsCatalog().search("hafen", offset: 0, limit: 10).files
            #expect(Set(list.compactMap { $0["title"] as? String }) == Set(expected.map(\.title)))
            for page in list {
                #expect(Set(page.keys) == Set(pageMembers))
                #expect(isNumber(page["pageid"]) && page["ns"] as? Int == 6 && isString(page["title"]))
                #expect(page["imagerepository"] as? String == "local")
                let info = try imageInfo(page)
                for member in ["size", "width", "height"] { #expect(isNumber(info[member]), "\(member)") }
                for member in ["url", "descriptionurl", "descriptionshorturl", "mime"] {
                    #expect(isString(info[member]), "\(member)")
                }
                #expect(
                    (info["descriptionurl"] as? String)?.hasPrefix("https://commons.wikimedia.org/wiki/File:") == true)
                let pageID = try #require(page["pageid"] as? Int)
                #expect(
                    info["descriptionshorturl"] as? String
                        == "https://commons.wikimedia.org/w/index.php?curid=\(pageID)")
                #expect((info["url"] as? String)?.hasPrefix("\(baseURL)/upload/") == true)
                if let thumbnail = info["thumburl"] {
                    #expect(isString(thumbnail) && isNumber(info["thumbwidth"]) && isNumber(info["thumbheight"]))
                }
                for (name, field) in try metadata(page) {
                    #expect(isString(field["value"]) && field["source"] as? String != nil, "\(name)")
                    #expect(Set(field.keys).isSubset(of: ["value", "source", "hidden"]), "\(name)")
                    #expect(field["hidden"].map { $0 as? String == "" } ?? (name == "Artist"), "\(name)")
                }
            }
            let file = try #require(expected.first)
            let first = try #require(list.first { $0["index"] as? Int == 1 })
            #expect(first["pageid"] as? Int == file.pageID && first["title"] as? String == file.title)
            #expect(
                try await search(server, parameters("hafen")).body == response.body, "the same request, the same bytes")
            #expect(try await search(server, parameters("  HAFEN ")).body == response.body, "terms are normalised")
            try await withServer { other in
                let again = try await search(other, parameters("hafen"))
                let otherBase = await other.baseURL
                #expect(again.text.replacingOccurrences(of: otherBase, with: baseURL) == response.text)
            }
        }
    }

    @Test func pagingFollowsContinueToTheEnd() async throws {
        var configuration = SampleAPIConfiguration()
        configuration.commonsCounts = ["kran": 23, "leer": 0]
        try await withServer(configuration) { server in
            var indexes: [Int] = []
            var continuation: [String: String?] = [:]
            var batches = 0
            while batches < 10 {
                batches += 1
                let body = try object(try await search(server, parameters("kran", continuation)))
                let list = try #require((body["query"] as? [String: Any])?["pages"] as? [[String: Any]])
                indexes += list.compactMap { $0["index"] as? Int }.sorted()
                guard let next = body["continue"] as? [String: Any] else { break }
                #expect(next["continue"] as? String == "gsroffset||")
                continuation = [
                    "gsroffset": String(try #require(next["gsroffset"] as? Int)), "continue": "gsroffset||",
                ]
            }
            #expect(batches == 3 && indexes == Array(1...23))
            let beyond = try await search(server, parameters("kran", ["gsroffset": "23"]))
            #expect(beyond.status == 200 && beyond.text == #"{"batchcomplete":true}"#)
            #expect(try await search(server, parameters("leer")).text == #"{"batchcomplete":true}"#)
            let middle = try pages(try await search(server, parameters("kran", ["gsroffset": "5", "gsrlimit": "3"])))
            #expect(Set(middle.compactMap { $0["index"] as? Int }) == [6, 7, 8])

            let legacy = try await search(server, parameters("kran", ["formatversion": nil, "gsroffset": "20"]))
            let legacyBody = try object(legacy)
            #expect(legacyBody["batchcomplete"] as? String == "" && legacyBody["continue"] == nil)
            let keyed = try #require((legacyBody["query"] as? [String: Any])?["pages"] as? [String: [String: Any]])
            #expect(keyed.count == 3 && keyed.allSatisfy { String($0.value["pageid"] as? Int ?? 0) == $0.key })
        }
    }

    @Test func gsrlimitIsClampedWithMediaWikisWarning() async throws {
        try await withServer { server in
            let wide = try await search(server, parameters("hafen", ["gsrlimit": "500"]))
            #expect(try pages(wide).count == 50)
            let warnings = try #require(try object(wide)["warnings"] as? [String: [String: String]])
            #expect(warnings == ["search": ["warnings": "gsrlimit may not be over 50 (set to 50) for users."]])
            #expect(wide.text.contains(#""continue":{"gsroffset":50,"continue":"gsroffset||"}"#))
            let most = try await search(server, parameters("hafen", ["gsrlimit": "max"]))
            #expect(try pages(most).count == 50)
            #expect(try object(most)["warnings"] == nil)
            #expect(try object(most)["limits"] as? [String: Int] == ["search": 50])
            #expect(try pages(try await search(server, parameters("hafen", ["gsrlimit": "50"]))).count == 50)
            #expect(try object(try await search(server, parameters("hafen", ["gsrlimit": "50"])))["warnings"] == nil)
            let none = try await search(server, parameters("hafen", ["gsrlimit": "0"]))
            #expect(try pages(none).count == 1)
            #expect(
                none.text.contains(#""warnings":{"search":{"warnings":"gsrlimit may not be less than 1 (set to 1)."}}"#)
            )
            #expect(try pages(try await search(server, parameters("hafen", ["gsrlimit": nil]))).count == 10)
        }
    }

    @Test func imageinfoHonoursItsParameters() async throws {
        try await withServer { server in
            let filtered = try pages(
                try await search(server, parameters("hafen", ["iiextmetadatafilter": "Artist|LicenseUrl|Nonsense"])))
            for page in filtered {
                let names = Set(try metadata(page).keys)
                #expect(names.isSubset(of: ["Artist", "LicenseUrl"]) && names.contains("Artist"))
            }
            let everything = try pages(try await search(server, parameters("hafen", ["iiextmetadatafilter": nil])))
            #expect(everything.contains { (try? metadata($0)["Copyrighted"]) != nil })
            let client = try pages(try await search(server, parameters("hafen")))
            #expect(client.allSatisfy { (try? metadata($0)["Copyrighted"]) == nil })

            let mimeOnly = try pages(try await search(server, parameters("hafen", ["iiprop": "mime"])))
            #expect(try mimeOnly.allSatisfy { Set(try imageInfo($0).keys) == ["mime"] })
            let standard = try pages(try await search(server, parameters("hafen", ["iiprop": nil])))
            #expect(try standard.allSatisfy { Set(try imageInfo($0).keys) == ["timestamp", "user"] })
            let unsized = try pages(try await search(server, parameters("hafen", ["iiurlwidth": nil])))
            #expect(try unsized.allSatisfy { try imageInfo($0)["thumburl"] == nil && imageInfo($0)["url"] != nil })

            let tiles = try pages(
                try await search(server, parameters("hafen", ["iiurlwidth": "500", "gsrlimit": "20"])))
            for page in tiles {
                let info = try imageInfo(page)
                guard info["mime"] as? String == "image/jpeg", let thumbnail = info["thumburl"] as? String,
                    let url = info["url"] as? String, let width = info["width"] as? Int, thumbnail != url
                else { continue }
                #expect(info["thumbwidth"] as? Int == 500 && thumbnail.contains("/500px-"))
                let responsive = try #require(info["responsiveUrls"] as? [String: String])
                for (density, scaled) in [("1.5", 750), ("2", 1_000)] {
                    let expected =
                        scaled >= width ? url : thumbnail.replacingOccurrences(of: "/500px-", with: "/\(scaled)px-")
                    #expect(responsive[density] == expected, "\(density)")
                }
            }
            let huge = try pages(
                try await search(server, parameters("hafen", ["iiurlwidth": "10000", "gsrlimit": "20"])))
            for page in huge {
                let info = try imageInfo(page)
                switch info["mime"] as? String {
                case "image/jpeg":
                    guard let thumbnail = info["thumburl"] as? String else { continue }
                    #expect(thumbnail == info["url"] as? String, "a photo is never enlarged")
                    #expect(info["thumbwidth"] as? Int == info["width"] as? Int && info["responsiveUrls"] == nil)
                case "image/svg+xml":
                    #expect(info["thumbwidth"] as? Int == 4_000)
                    #expect((info["thumburl"] as? String)?.contains("/4000px-") == true)
                    #expect((info["thumburl"] as? String)?.hasSuffix(".svg.png") == true)
                default: break
                }
            }
            let badWidth = try object(try await search(server, parameters("hafen", ["iiurlwidth": "wide"])))
            #expect((badWidth["error"] as? [String: String])?["code"] == "badinteger")
        }
    }

    @Test func specialFilesCarryWhatTheyStandFor() async throws {
        try await withServer { server in
            let list = try pages(try await search(server, parameters("hafen", ["gsrlimit": "20"])))
            func page(_ index: Int) throws -> [String: Any] {
                try #require(list.first { $0["index"] as? Int == index + 1 })
            }
            func info(_ index: Int) throws -> [String: Any] { try imageInfo(try page(index)) }
            func field(_ index: Int, _ name: String) throws -> String? {
                try metadata(try page(index))[name]?["value"] as? String
            }
            let pdf = try info(CommonsCatalog.pdfIndex)
            #expect(pdf["mime"] as? String == "application/pdf")
            #expect((pdf["thumburl"] as? String)?.hasSuffix(".pdf.jpg") == true)
            #expect((pdf["thumburl"] as? String)?.contains("/page1-") == true)
            #expect(try info(CommonsCatalog.djvuIndex)["mime"] as? String == "image/vnd.djvu")
            let audio = try info(CommonsCatalog.audioIndex)
            #expect(audio["mime"] as? String == "application/ogg" && audio["thumburl"] == nil)
            #expect(audio["width"] as? Int == 0)
            let video = try info(CommonsCatalog.videoIndex)
            #expect(video["mime"] as? String == "video/webm")
            #expect((video["thumburl"] as? String)?.hasSuffix(".webm.jpg") == true)
            let drawing = try info(CommonsCatalog.svgIndex)
            #expect(drawing["mime"] as? String == "image/svg+xml" && drawing["thumbwidth"] as? Int == 1280)
            #expect((drawing["thumburl"] as? String)?.hasSuffix(".svg.png") == true)
            #expect((drawing["thumburl"] as? String)?.contains("/1280px-") == true)

            for name in ["LicenseShortName", "LicenseUrl", "UsageTerms"] {
                #expect(try field(CommonsCatalog.noLicenseIndex, name) == nil)
            }
            #expect(try field(CommonsCatalog.publicDomainIndex, "LicenseShortName") == "Public domain")
            #expect(try field(CommonsCatalog.publicDomainIndex, "LicenseUrl") == nil)
            #expect(try field(CommonsCatalog.scriptArtistIndex, "Artist") == CommonsCatalog.scriptArtist)
            #expect(try field(CommonsCatalog.hostileLicenseURLIndex, "LicenseUrl") == "javascript:alert(1)")
            #expect(try field(CommonsCatalog.hostileLicenseURLIndex, "LicenseShortName") == "CC BY 4.0")
            #expect(try field(CommonsCatalog.noObjectNameIndex, "ObjectName") == nil)
            #expect(try field(CommonsCatalog.plainArtistIndex, "Artist") == "Nicholson, Henry Alleyne")
            let unrendered = try info(CommonsCatalog.noThumbnailIndex)
            #expect(unrendered["mime"] as? String == "image/jpeg" && unrendered["url"] != nil)
            for member in ["thumburl", "thumbwidth", "thumbheight", "responsiveUrls"] {
                #expect(unrendered[member] == nil, "\(member)")
            }
        }
    }

    @Test func aUserAgentWithoutAContactIsRefused() async throws {
        let refused = [
            nil, "", "  ", "curl/8.5.0", "libcurl/8.5.0", "Vitrine/1.0", "Vitrine/1.0 ( ) libcurl", "Vitrine/1.0 (ops",
        ]
        for agent in refused {
            #expect(!SampleAPIRouter.userAgentNamesContact(agent), "\(agent ?? "nil")")
        }
        for agent in ["Vitrine/1.0 (ops@example.org) libcurl", "Bot/2 (https://example.org/bot; bot@example.org)"] {
            #expect(SampleAPIRouter.userAgentNamesContact(agent), "\(agent)")
        }
        try await withServer { server in
            for headers in [[:], ["User-Agent": "curl/8.5.0"], ["User-Agent": "Vitrine/1.0"]] {
                let answer = try await search(server, parameters("hafen"), headers: headers)
                #expect(answer.status == 403, "\(headers)")
                #expect(
                    answer.text
                        == "Please set a user-agent and respect our robot policy https://w.wiki/4wJS. See also T400119."
                )
            }
            #expect(try await search(server, parameters("hafen")).status == 200)
            let images = try pages(try await search(server, parameters("hafen")))
            let url = try #require(try imageInfo(images[0])["url"] as? String)
            #expect(try await SocketHTTPClient.fetch(url).status == 403, "the upload host's policy is the API's")
            #expect(try await SocketHTTPClient.fetch(url, headers: contact).status == 200)
        }
        var lenient = SampleAPIConfiguration()
        lenient.commonsRequiresContact = false
        try await withServer(lenient) { server in
            let answer = try await search(server, parameters("hafen"), headers: [:])
            #expect(answer.status == 200)
            let images = try pages(answer)
            let url = try #require(try imageInfo(images[0])["url"] as? String)
            #expect(try await SocketHTTPClient.fetch(url).status == 200)
        }
    }

    @Test func searchesAreThrottled() async throws {
        var configuration = SampleAPIConfiguration()
        configuration.commonsRateLimit = 3
        let start = ContinuousClock.now
        let router = SampleAPIRouter(configuration: configuration)
        let query = Dictionary(uniqueKeysWithValues: parameters("hafen"))
        func ask(at seconds: Int, agent: String = contact["User-Agent"] ?? "") -> SampleAPIResponse {
            let request = SampleAPIRequest(
                method: "GET", path: "/w/api.php", query: query, headers: ["user-agent": agent])
            return router.respond(to: request, baseURL: "http://127.0.0.1:1", now: start + .seconds(seconds))
        }
        #expect((0..<3).map { ask(at: $0).status } == [200, 200, 200])
        #expect(ask(at: 5, agent: "curl/8.5.0").status == 403, "a refused request is not counted")
        let throttled = ask(at: 20)
        #expect(throttled.status == 429 && throttled.headers["Retry-After"] == "40")
        #expect(String(decoding: throttled.body, as: UTF8.self) == "Too many requests")
        #expect(ask(at: 60).status == 200, "a new minute")

        var unlimited = SampleAPIConfiguration()
        unlimited.commonsRateLimit = 0
        let free = SampleAPIRouter(configuration: unlimited)
        let request = SampleAPIRequest(
            method: "GET", path: "/w/api.php", query: query, headers: ["user-agent": "A (b)"])
        #expect((0..<50).allSatisfy { _ in free.respond(to: request, baseURL: "", now: start).status == 200 })

        var onTheWire = SampleAPIConfiguration()
        onTheWire.commonsRateLimit = 1
        onTheWire.now = { start }
        try await withServer(onTheWire) { server in
            #expect(try await search(server, parameters("a")).status == 200)
            let refused = try await search(server, parameters("b"))
            #expect(
                refused.status == 429 && refused.header("Retry-After") == "60" && refused.text == "Too many requests")
        }
    }

    @Test func otherActionsAndFormatsAreErrorsWithStatus200() async throws {
        try await withServer { server in
            let cases: [([String: String?], String, String)] = [
                (["action": "parse"], "badvalue", #"Unrecognized value for parameter "action": parse."#),
                (["format": "xml"], "badvalue", #"Unrecognized value for parameter "format": xml."#),
                (["action": nil], "missingparam", #"The "action" parameter must be set."#),
                (["gsrsearch": ""], "missingparam", #"The "gsrsearch" parameter must be set."#),
                (["gsroffset": "x"], "badinteger", #"Invalid value "x" for integer parameter "gsroffset"."#),
            ]
            for (changes, code, info) in cases {
                let answer = try await search(server, parameters("hafen", changes))
                #expect(answer.status == 200 && answer.header("MediaWiki-API-Error") == code, "\(changes)")
                let error = try #require(try object(answer)["error"] as? [String: String])
                #expect(error["code"] == code && error["info"] == info, "\(changes)")
                #expect(error["docref"]?.hasPrefix("See https://commons.wikimedia.org/w/api.php") == true)
            }
            let legacy = try object(
                try await search(server, parameters("hafen", ["action": "x", "formatversion": nil])))
            #expect((legacy["error"] as? [String: String])?["*"]?.hasPrefix("See ") == true)
        }
    }

    @Test func imagesAreServedAsJPEGsAndUnknownNamesAre404() async throws {
        var configuration = SampleAPIConfiguration()
        configuration.commonsRequiresContact = false  // the uploads' User-Agent: aUserAgentWithoutAContactIsRefused
        try await withServer(configuration) { server in
            let list = try pages(try await search(server, parameters("hafen", ["gsrlimit": "20"])))
            let images = SampleImages.bundled
            var checks: [(url: String, width: Int, height: Int)] = []
            for page in list {
                let info = try imageInfo(page)
                let name = String(try #require(page["title"] as? String).dropFirst(5)).replacingOccurrences(
                    of: " ", with: "_")
                let picture = try #require(CommonsCatalog.picture(forName: name))
                let large = try #require(images.image(theme: picture.theme, number: picture.number, size: 1280))
                let small = try #require(images.image(theme: picture.theme, number: picture.number, size: 640))
                if info["mime"] as? String == "image/jpeg", let url = info["url"] as? String {
                    checks.append((url, large.width, large.height))
                }
                if let thumbnail = info["thumburl"] as? String, thumbnail != info["url"] as? String {
                    checks.append((thumbnail, large.width, large.height))
                    if thumbnail.contains("/1280px-") {
                        let tile = thumbnail.replacingOccurrences(of: "/1280px-", with: "/500px-")
                        checks.append((tile, small.width, small.height))
                    }
                    for url in (info["responsiveUrls"] as? [String: String] ?? [:]).values where url.contains("/thumb/")
                    {
                        checks.append((url, large.width, large.height))
                    }
                }
            }
            #expect(checks.count >= 45)
            try await expectJPEGs(checks)

            let file = CommonsCatalog().file(at: 0, for: "hafen")
            let baseURL = await server.baseURL
            let url = CommonsCatalog.originalURL(of: file.name, baseURL: baseURL)
            let head = try await SocketHTTPClient.fetch(url, method: "HEAD")
            #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Type") == "image/jpeg")
            let folders = CommonsCatalog.hashPath(of: file.name)
            let encoded = CommonsCatalog.rawURLEncoded(file.name)
            let wrongFolders = folders.hasPrefix("0") ? "1/1f" : "0/0f"
            var missing = [
                "/upload/\(folders)/Nope.jpg", "/upload/\(wrongFolders)/\(encoded)",
                "/upload/thumb/\(folders)/\(encoded)/0px-\(encoded)",
                "/upload/thumb/\(folders)/\(encoded)/4001px-\(encoded)",
                "/upload/thumb/\(folders)/\(encoded)/0640px-\(encoded)",
                "/upload/thumb/\(folders)/\(encoded)/widepx-\(encoded)",
                "/upload/thumb/\(folders)/\(encoded)/640px-\(encoded).png", "/upload/thumb/\(folders)/\(encoded)",
            ]
            for index in [
                CommonsCatalog.svgIndex, CommonsCatalog.pdfIndex, CommonsCatalog.audioIndex, CommonsCatalog.videoIndex,
            ] {
                let other = CommonsCatalog().file(at: index, for: "hafen")
                missing.append(CommonsCatalog.originalURL(of: other.name, baseURL: ""))
            }
            let audio = CommonsCatalog().file(at: CommonsCatalog.audioIndex, for: "hafen")
            let audioName = CommonsCatalog.rawURLEncoded(audio.name)
            missing.append("/upload/thumb/\(CommonsCatalog.hashPath(of: audio.name))/\(audioName)/640px-\(audioName)")
            for path in missing {
                #expect(try await SocketHTTPClient.fetch(baseURL + path).status == 404, "\(path)")
            }
        }
    }

    @Test func faultRulesTargetTheSearchAndItsUploads() async throws {
        let faults = [try SampleAPIFault.parse("commons,q=kran:503:1"), try SampleAPIFault.parse("images:502:1")]
        var configuration = SampleAPIConfiguration(faults: faults)
        configuration.commonsRequiresContact = false  // the uploads' User-Agent: aUserAgentWithoutAContactIsRefused
        try await withServer(configuration) { server in
            #expect(try await search(server, parameters("hafen kran")).status == 503)
            #expect(try await search(server, parameters("hafen kran")).status == 200)
            let url = CommonsCatalog.originalURL(
                of: CommonsCatalog().file(at: 0, for: "hafen").name, baseURL: await server.baseURL)
            #expect(try await SocketHTTPClient.fetch(url).status == 502)
            #expect(try await SocketHTTPClient.fetch(url).status == 200)
            #expect(server.injectedFaultCounts() == [1, 1])
            let index = try await SocketHTTPClient.fetch("\(await server.baseURL)/")
            #expect(
                index.text.contains("GET /w/api.php?action=query") && index.text.contains("/upload/thumb/{a}/{ab}/"))
        }
    }
}
