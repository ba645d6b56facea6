import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineBasics
@testable import VitrineModel
@testable import VitrineSources
@testable import VitrineStore

/// The search index script of a gallery (`SearchIndex`): what it holds for each entry, that hostile text stays
/// data, and its size (the budget: at most 60 bytes an entry after gzip).
@Suite struct SearchIndexTests {
    /// The object the index script passes to `vitrineSearchIndex`, parsed as JSON.
    static func data(of script: [UInt8]) throws -> [String: Any] {
        let text = try #require(String(bytes: script, encoding: .utf8))
        let prefix = SearchIndex.callee + "("
        #expect(text.hasPrefix(prefix) && text.hasSuffix(");\n"))
        let json = text.dropFirst(prefix.count).dropLast(3)
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    /// Each item of `data` as its page, tile, size, caption and searchable text (as search.js makes them).
    static func entries(of data: [String: Any]) throws -> [(page: String, tile: String?, caption: String, text: String)]
    {
        // A site's index names a page's gallery third (`SearchIndex.script(ofSite:)`).
        let paths = try #require(data["paths"] as? [[Any]]).map { $0.compactMap { $0 as? String } }
        let items = try #require(data["items"] as? [[Any]])
        return try items.map { item in
            let page = paths[try #require(item[0] as? Int)]
            let image = try #require(item[2] as? Int)
            let caption = item.count > 6 ? try #require(item[6] as? String) : ""
            let folded = item.count > 7 ? (item[7] as? String ?? caption) : caption
            let more = item.count > 8 ? try #require(item[8] as? String) : ""
            return (
                page[0] + (item[1] as! String) + page[1],
                image < 0 ? nil : paths[image][0] + (item[3] as! String) + paths[image][1], caption,
                folded + " " + more
            )
        }
    }

    @Test func everyEntryWithAPictureIsIndexedWithItsPageTileCaptionTagsAndCredit() throws {
        let gallery = taggedGallery(
            [["Harbour", "Crane"], ["Müller"]], variantTags: [["night"]], captions: ["Großer Hafen", "plain words"])
        let entries = try Self.entries(of: try Self.data(of: SearchIndex.script(of: gallery)))
        let expected = gallery.allItems.flatMap(\.entries).filter {
            if case .picture = $0.content { true } else { false }
        }
        #expect(entries.map(\.page) == expected.map(\.href))
        #expect(entries.allSatisfy { $0.tile?.hasPrefix("images/") == true && $0.tile?.hasSuffix(".jpg") == true })
        #expect(entries[0].caption == "Großer Hafen")
        #expect(entries[0].text.contains("grosser hafen") && entries[0].text.contains("harbour"))
        #expect(entries[2].text.contains("muller"))
        #expect(entries[1].text.contains("night"))
        #expect(entries[3].caption == "plain words" && !entries[3].text.contains("muller"))
    }

    @Test func pathsArePrefixedOnceAndTheAlbumsHierarchyIsIndexedByItsTitles() throws {
        let gallery = sampleHierarchy()
        let data = try Self.data(of: SearchIndex.script(of: gallery))
        let paths = try #require(data["paths"] as? [[String]])
        #expect(Set(paths.map { $0[0] + "*" + $0[1] }).count == paths.count)
        let entries = try Self.entries(of: data)
        #expect(entries.map(\.page) == ["photos/1.html", "photos/2.html", "photos/3.html", "photos/4.html"])
        #expect(entries[0].caption == "photo <1>")
        // Photo 2's tile failed to download: found by its title, shown without a picture.
        #expect(entries[1].tile == nil && entries[1].caption == "photo <2>")
    }

    @Test func hostileTextStaysDataAndLong() throws {
        let hostile = "</script><script>alert(1)</script> \u{2028}\u{2029} \u{202E}evil & <b>x</b> \"q\" \\ "
        let long = String(repeating: "ü", count: 10_000)
        let gallery = taggedGallery(
            [["</script>", String(repeating: "t", count: 10_000)], []], captions: [hostile, long])
        let script = SearchIndex.script(of: gallery)
        let text = try #require(String(bytes: script, encoding: .utf8))
        for bad in ["<", ">", "&", "\u{2028}", "\u{2029}", "\u{202E}"] {
            #expect(!text.contains(bad), "\(bad.debugDescription)")
        }
        #expect(text.split(separator: "\n").count == 2 * 2 + 2)
        let entries = try Self.entries(of: try Self.data(of: script))
        // As the pages show it: the bidi override is dropped (XMLText.clean), not kept to reach a result's alt text.
        let shown = hostile.replacingOccurrences(of: "\u{202E}", with: "")
        #expect(entries[0].caption == shown.split(whereSeparator: \.isWhitespace).joined(separator: " "))
        #expect(entries[2].caption.count == SearchIndex.maximumCaption)
        #expect(script.count < 4_000)
    }

    /// `bytes` compressed by gzip at its strongest, as a static host serves the index.
    static func gzipped(_ bytes: [UInt8]) async throws -> Int {
        let gzip = try await ChildProcess.output(
            of: URL(fileURLWithPath: "/usr/bin/env"), arguments: ["gzip", "-9nc"], input: bytes)
        #expect(gzip.exit.termination == .exited(0))
        return gzip.bytes.count
    }

    /// 5,000 photos in 100 albums of 10 users, as the JSONPlaceholder albums set: lorem-ipsum titles of 3 to 8
    /// words, a thumbnail file each (its name a digest, which does not compress). With `users`, `seed` and `folder`,
    /// 500 photos a user, the gallery of a site in `folder`.
    static func albumsSet(users: Int = 10, seed: UInt64 = 42, folder: String = "") -> GalleryModel {
        let words = [
            "quidem", "molestiae", "enim", "sunt", "qui", "excepturi", "placeat", "culpa", "omnis", "laborum",
            "dolores", "accusamus", "beatae", "ad", "facilis", "cum", "similique", "reprehenderit", "officia",
            "porro", "iure", "quia", "iusto", "natus", "eos", "ut", "est", "voluptas", "harum", "repudiandae",
            "odio", "eaque", "dolorem", "aut", "doloribus", "distinctio", "vel", "labore", "rerum", "magnam",
            "nesciunt", "fugit", "velit", "saepe", "tenetur", "nihil", "consequatur", "voluptatem", "perspiciatis",
            "sequi",
        ]
        var state: UInt64 = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var images: [String: ImageOutcome] = [:]
        func photo(_ id: Int) -> SourceItem {
            let tile = RemoteImage(url: "https://img/\(folder)\(id)/150", width: 150, height: 150)
            let full = RemoteImage(url: "https://img/\(folder)\(id)/600", width: 600, height: 600)
            for image in [tile, full] {
                images[image.url] = .stored(
                    CacheStore.ImageRecord(sha256: SHA256Hasher.hex(of: image.url), format: .png, byteCount: 10))
            }
            let title = (0..<(3 + next(6))).map { _ in words[next(words.count)] }.joined(separator: " ")
            return SourceItem(
                sourceID: String(id),
                entries: [.found(caption: title, credit: nil, tile: tile, full: full, license: .unsplash)])
        }
        var result = SourceResult(
            title: "JSONPlaceholder albums",
            source: SourceDescription(name: "jsonplaceholder", label: "JSONPlaceholder", home: nil),
            variants: [SourceVariant(key: "photo", label: "Photo", query: nil)], items: [], fetchedAt: nil)
        result.groups = (1...users).map { user in
            SourceGroup(
                sourceID: String(user), title: "User \(user)", folder: "users",
                groups: (1...10).map { number in
                    let album = (user - 1) * 10 + number
                    return SourceGroup(
                        sourceID: String(album), title: "album \(album)", folder: "albums", itemFolder: "photos",
                        items: (1...50).map { photo((album - 1) * 50 + $0) })
                })
        }
        return GalleryAssembler(itemsPerPage: 50, folder: folder).assemble(result, images: images)
    }

    @Test func theIndexOfFiveThousandPhotosTakesAtMostSixtyBytesAPhotoAfterGzip() async throws {
        let gallery = Self.albumsSet()
        #expect(gallery.allItems.count == 5_000)
        let script = SearchIndex.script(of: gallery)
        let compressed = try await Self.gzipped(script)
        #expect(compressed > 5_000 * 20, "gzip made \(compressed) bytes: not a real index")
        #expect(compressed <= 5_000 * 60, "\(script.count) bytes, \(compressed) after gzip")
    }

    @Test func theIndexOfATaggedGalleryTakesAtMostSixtyBytesAnEntryAfterGzip() async throws {
        let gallery = largeGallery(items: 2_500, perPage: 50)
        let script = SearchIndex.script(of: gallery)
        #expect(try await Self.gzipped(script) <= 5_000 * 60)
    }

    @Test func theSameModelGivesTheSameBytes() {
        #expect(SearchIndex.script(of: Self.albumsSet()) == SearchIndex.script(of: Self.albumsSet()))
    }
}
