import Foundation
import Testing
import VitrineBasics
import VitrineTestSupport

@testable import VitrineHTTP
@testable import VitrineModel
@testable import VitrinePipeline
@testable import VitrineSources
@testable import VitrineStore

/// A rebuild after one item changed renders exactly the pages that read it, and writes only those whose bytes
/// changed: proved on the manifest, where a page's recorded inputs change exactly when it is rendered again.
@Suite struct IncrementalBuildTests {
    /// A source that answers with the same items every time but the one caption a test changes.
    struct FixedSource: ImageSource {
        var captions: [String]
        var configuration: String { "fixed " + captions.joined(separator: "|") }

        func collect(using api: any APIResponseLoading) async throws -> SourceResult {
            let items = captions.enumerated().map { index, caption in
                let picture = SourceEntry.found(
                    caption: caption, credit: Credit(name: "user\(index)", url: nil),
                    tile: RemoteImage(url: "https://cdn.example/\(index)_640.jpg", width: 640, height: 427),
                    full: RemoteImage(url: "https://cdn.example/\(index)_1280.jpg", width: 1280, height: 853),
                    license: .pixabay)
                return SourceItem(sourceID: String(index + 1), entries: [picture, picture])
            }
            return SourceResult(
                title: "Hamburg", source: SourceDescription(name: "pixabay", label: "Pixabay", home: nil),
                variants: [
                    SourceVariant(key: "original", label: "Original", query: "Hamburg"),
                    SourceVariant(key: "graffiti", label: "Graffiti", query: "Hamburg graffiti"),
                ],
                items: items, fetchedAt: Date(timeIntervalSince1970: 1_800_000_000))
        }
    }

    /// Each file of the output's manifest with what its bytes are (`sha256`) and what they were made from (`inputs`).
    func manifest(_ output: URL) throws -> [String: (sha256: String, inputs: String?)] {
        let data = try Data(contentsOf: output.appendingPathComponent(".vitrine-manifest.json"))
        let files = try #require(
            (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["files"] as? [[String: Any]])
        var result: [String: (sha256: String, inputs: String?)] = [:]
        for file in files {
            result[try #require(file["path"] as? String)] = (
                try #require(file["sha256"] as? String), file["inputs"] as? String
            )
        }
        return result
    }

    @Test(arguments: [
        // The first item of page 2: its own pages, those of item 3 (page 1) and item 5, and page 2's grid.
        (
            3,
            [
                "page-2.html", "items/3-original.html", "items/3-graffiti.html", "items/4-original.html",
                "items/4-graffiti.html", "items/5-original.html", "items/5-graffiti.html",
            ]
        ),
        // The last item: its pages, those of item 6 before it, and the last grid page.
        (
            6,
            [
                "page-3.html", "items/6-original.html", "items/6-graffiti.html", "items/7-original.html",
                "items/7-graffiti.html",
            ]
        ),
    ])
    func oneChangedItemRendersExactlyThePagesThatReadIt(changed: Int, affected: [String]) async throws {
        let folder = try TemporaryFolder()
        let output = folder.url.appendingPathComponent("out")
        let fetcher = FakeFetcher { request in
            .success(FetchResponse(status: 200, body: [UInt8](RandomPipelineTests.jpeg), effectiveURL: request.url))
        }
        let pipeline = GalleryPipeline(
            fetcher: fetcher, cache: CacheStore(root: folder.url.appendingPathComponent("cache")),
            policy: CachePolicy(), now: Date.init)
        let options = BuildOptions(output: output, itemsPerPage: 3)
        var source = FixedSource(captions: (1...7).map { "port, ship \($0)" })
        let first = try await pipeline.run(source, label: "Hamburg", options: options)
        #expect(first.pagesRendered == 3 + 7 * 2 + 1)  // grid pages, previews, the search page
        let before = try manifest(output)

        source.captions[changed] = "a new caption"
        let again = try await pipeline.run(source, label: "Hamburg", options: options)
        let after = try manifest(output)
        let pages = Set(after.keys.filter { $0.hasSuffix(".html") })
        let newInputs = pages.filter { before[$0]?.inputs != after[$0]?.inputs }
        #expect(newInputs == Set(affected))
        #expect(again.pagesRendered == affected.count)
        #expect(again.pagesUnchanged == pages.count - again.pagesWritten)
        // The item's own page in the variant whose caption changed, and its grid page, show the caption; the other
        // pages that read it show only its link.
        let newBytes = pages.filter { before[$0]?.sha256 != after[$0]?.sha256 }
        #expect(newBytes == [affected[0], "items/\(changed + 1)-original.html", "items/\(changed + 1)-graffiti.html"])
        #expect(again.pagesWritten == newBytes.count)
        #expect(before["gallery.xml"]?.inputs != after["gallery.xml"]?.inputs)
    }
}
