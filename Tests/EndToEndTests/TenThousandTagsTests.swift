import Foundation
import SampleAPI
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrineRender

/// 10,000 distinct tags through the built binary: a Pixabay search of 500 hits whose tags the sample API spells in
/// other cases, other Unicode normalisations, markup and bidi controls (`many-tags`).
@Suite struct TenThousandTagsTests: BuildsAgainstFaults {
    @Test func tenThousandDistinctTagsBuildValidDistinctPagesWhoseNamesDifferIgnoringCase() async throws {
        let scenario = try await Scenario([SampleAPIFault(.manyTags, on: .api)])
        try await stopping(scenario) {
            let outcome = try await scenario.build(["--no-variant", "--per-page", "200", "--pages", "3"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let root = scenario.site.root
            let model = try LibXMLDocument.parse([UInt8](Data(contentsOf: root.appendingPathComponent("gallery.xml"))))
            #expect(model.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [])
            #expect(model.strings("/gallery/collection[1]/item").count == 500)
            let names = model.strings("/gallery/tags/tag/@name")
            #expect(names.count == 500 * HostileResults.tagsPerHit)
            #expect(Set(names).count == names.count)
            // Every spelling of a tag is the one tag, without markup or bidi controls as anything but text.
            #expect(
                !names.contains {
                    $0.contains("\u{202E}") || $0 != $0.lowercased() || $0.unicodeScalars.contains("\u{301}")
                })
            #expect(names.contains { $0.hasPrefix("<b>") } && names.contains { $0.hasPrefix("café ") })

            // One file per tag page, none two that differ only in case; every page a valid page of its tag.
            let hrefs = model.strings("/gallery/tags/tag/page/@href")
            #expect(Set(hrefs.map { $0.lowercased() }).count == hrefs.count && hrefs.count == names.count)
            let files = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("tags").path)
            #expect(files.count == hrefs.count + 1 && Set(files.map { $0.lowercased() }).count == files.count)
            for (name, href) in zip(names, model.strings("/gallery/tags/tag/@href")).prefix(2_000) {
                let html = try scenario.site.page(href)
                #expect(html.strings("//h1/q") == [name], "\(href)")
                #expect(html.strings("//li[@class='tile']").count == 1, "\(href)")
                #expect(html.strings("//script[not(@src)][not(@type='application/ld+json')]").isEmpty, "\(href)")
            }
            let index = try scenario.site.page("tags/index.html")
            #expect(index.strings("//main//nav//li").count == names.count)
            #expect(
                !String(decoding: try Data(contentsOf: root.appendingPathComponent("tags/index.html")), as: UTF8.self)
                    .unicodeScalars.contains { (0x202A...0x202E).contains($0.value) })
        }
    }
}
