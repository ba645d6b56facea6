import Foundation
import Testing
import VitrineBasics

@testable import VitrineSources
@testable import VitrineStore

/// Answers the real APIs gave, kept in Tests/Fixtures/recorded with their origins (ORIGINS.md there): the sources
/// read them as they read the sample API's.
@Suite struct RecordedAnswersTests {
    static func recorded(_ name: String) throws -> APIResponse {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/recorded/\(name)")
        return APIResponse(
            status: 200, body: Array(try Data(contentsOf: url)), fetchedAt: Date(timeIntervalSince1970: 0),
            fromCache: false)
    }

    /// Every result of three Openverse answers (2021, 2022 and 2023, each with another set of members) is read,
    /// credited, licensed as Creative Commons labels it, and shown by its thumbnail and image.
    @Test(arguments: [
        (
            "openverse-2021-11-cat-frontend-mock.json",
            ["CC BY 2.0", "CC BY-NC 2.0", "CC BY-NC-ND 2.0", "CC BY-NC-SA 2.0", "Public Domain Mark 1.0"]
        ),
        (
            "openverse-2022-03-galah-tape.json",
            [
                "CC BY 2.0", "CC BY-NC 2.0", "CC BY-NC-ND 2.0", "CC BY-NC-SA 2.0", "CC BY-ND 2.0", "CC BY-SA 2.0",
                "CC BY-SA 3.0", "CC0 1.0",
            ]
        ),
        (
            "openverse-2023-08-cat-sensitive-tape.json",
            ["CC BY 2.0", "CC BY-NC 2.0", "CC BY-NC-ND 2.0", "CC BY-NC-SA 2.0", "CC BY-ND 2.0", "CC BY-SA 2.0"]
        ),
    ])
    func openverseAnswersAreReadWhole(file: String, labels: [String]) throws {
        let page = try OpenverseSource.decodePage(Self.recorded(file), page: 1)
        #expect(page.received == 20 && page.results.count == 20 && page.skipped == 0)
        #expect(Set(page.results.map(\.license.label)) == Set(labels))
        #expect(page.results.allSatisfy { $0.license.allowsCopies && $0.license.url != nil && !$0.mature })
        for result in page.results {
            guard case .found(_, let credit, let tile, let full, _, _, _, _) = result.item.entries[0] else {
                Issue.record("\(result.item.sourceID) decodes")
                continue
            }
            #expect(credit?.url?.hasPrefix("http") == true && credit?.name.isEmpty == false)
            #expect(tile.url != full.url && full.url.hasPrefix("http"))
        }
    }

    /// Fifty files of a Commons answer (the older format, keyed by page id, without `mime` or a rendition): the
    /// licenses as the wiki reports them, the authors' HTML as text with their links.
    @Test func commonsFilesOfTheOlderFormatAreReadWithTheirLicensesAndAuthors() throws {
        let batch = try CommonsSource.decodeBatch(
            Self.recorded("commons-fv1-allimages-continue-50pages.json"), number: 1)
        #expect(batch.files.count == 50 && batch.unshowable == 0 && batch.warnings.isEmpty)
        #expect(batch.continuation?["gaicontinue"]?.hasPrefix("20151031230427|Naturalis") == true)
        let licenses = batch.files.map(\.license)
        #expect(
            Set(licenses.map(\.label)) == ["CC BY-SA 3.0 es", "CC BY-SA 4.0", "CC BY 4.0", "CC0 1.0", "Public domain"])
        #expect(licenses.allSatisfy { $0.allowsCopies })
        #expect(licenses.filter { $0.label == "Public domain" }.allSatisfy { $0.url == nil })
        let credits = batch.files.compactMap { file -> Credit? in
            guard case .found(_, let credit, _, _, _, _, _, _) = file.item.entries[0] else { return nil }
            return credit
        }
        #expect(credits.first?.name == "Dulceld69")
        #expect(
            credits.first?.authorURL?.hasPrefix("https://commons.wikimedia.org/w/index.php?title=User:Dulceld69")
                == true)
        #expect(credits.allSatisfy { !$0.name.contains("<") && !$0.name.contains("&amp;") })
        let authors = "Bell, Thomas; Darwin, Charles; Gould, Elizabeth; Gould, John; Owen, Richard; Waterhouse, G. R."
        #expect(credits.contains { $0.name == authors })
    }

    @Test func aCommonsFileWithARenditionIsShownByItAndItsListOfAuthorsIsText() throws {
        let batch = try CommonsSource.decodeBatch(
            Self.recorded("commons-fv1-single-file-thumburl-multilang.json"), number: 1)
        guard
            case .found(let caption, let credit, _, let full, let license, _, _, _) = batch.files.first?.item.entries[0]
        else {
            Issue.record("the file decodes")
            return
        }
        #expect(!caption.isEmpty && full.url.contains("upload.wikimedia.org") && license.label == "CC BY-SA 3.0")
        #expect(credit.map { !$0.name.contains("<") && !$0.name.isEmpty } == true)
    }

    /// A file of `formatversion=2` whose `imageinfo` holds its metadata alone: nothing to show, said so.
    @Test func aCommonsFileWithoutURLsIsSkippedWithAReason() throws {
        let batch = try CommonsSource.decodeBatch(Self.recorded("commons-fv2-single-file-license.json"), number: 1)
        #expect(batch.files.isEmpty && batch.warnings.count == 1)
        #expect(batch.warnings.first?.contains("no http(s) rendition") == true)
    }
}
