import Foundation
import SampleAPI
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrineBasics
@testable import VitrineRender

/// `--declared-license` (and `declared-license` in vitrine.toml), end to end: the real binary against the sample API.
///
/// What can be wrong: a source that names no license (the thumbnail list, JSONPlaceholder, Flickr's public feed) is
/// shown from its own URLs, so the grid and the albums keep nothing on disk, even when the person who runs Vitrine
/// knows the license; or a declared license passes for the source's own word. What we promise: with a declared
/// license the pictures are downloaded and cached like any that may be copied, and the pages and the JSON-LD say
/// the site declared it; without one, nothing changes; a value that names no license is refused in one sentence.
@Suite struct DeclaredLicenseTests {
    static let key = "flickr-key-4848"

    func withServer(_ body: (SampleAPIServer, Workspace) async throws -> Void) async throws {
        try await withSampleAPI(SampleAPIConfiguration(flickrKey: Self.key), body)
    }

    func model(_ workspace: Workspace, _ folder: String = "out") throws -> LibXMLDocument {
        let document = try LibXMLDocument.parse(
            [UInt8](Data(contentsOf: workspace.url.appendingPathComponent("\(folder)/gallery.xml"))))
        #expect(document.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [])
        return document
    }

    @Test func thumbnailsUnderADeclaredLicenseAreDownloadedAndThePagesSayTheSiteDeclaredIt() async throws {
        try await withServer { server, workspace in
            let outcome = try await VitrineProcess.run([
                "thumbnails", "--endpoint", await server.thumbnailsEndpoint, "--limit", "12", "--declared-license",
                "CC BY 4.0", "--cache", workspace.path("cache"), "--out", workspace.path("out"),
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let document = try model(workspace)
            #expect(document.strings("//entry/license/@declared-by").count == 12)
            #expect(Set(document.strings("//entry/license/@copies")) == ["allowed"])
            #expect(Set(document.strings("//entry/license/@href")) == ["https://creativecommons.org/licenses/by/4.0/"])
            #expect(document.strings("//image/@url").isEmpty && document.strings("//image/@src").count == 24)
            #expect(!server.requests().filter { $0.path.hasPrefix("/cimg/images/") }.isEmpty)
            #expect(!(try workspace.tree("out").keys.filter { $0.hasPrefix("images/") }.isEmpty))
            #expect(!(try workspace.tree("cache").keys.filter { $0.hasPrefix("images/") }.isEmpty))

            let site = SiteInspector(root: workspace.url.appendingPathComponent("out"))
            #expect(try site.crawl().broken == [])
            let index = try site.page("index.html")
            #expect(index.strings("//main//img/@src").allSatisfy { $0.hasPrefix("images/") })
            let preview = try site.page(try #require(document.strings("//item[1]/entry/@href").first))
            #expect(preview.strings("//span[@class='license']") == ["CC BY 4.0 (declared by the site)"])
            let data = try #require(
                preview.strings("//script[@type='application/ld+json']").first.flatMap(JSONLD.object))
            let license = try #require(data["license"] as? [String: Any])
            #expect(license["name"] as? String == "CC BY 4.0 (declared by the site)")
            #expect(license["url"] as? String == "https://creativecommons.org/licenses/by/4.0/")

            // The same choices of licenses apply as to any source: the declared one is every picture's.
            let reusable = try await VitrineProcess.run([
                "thumbnails", "--endpoint", await server.thumbnailsEndpoint, "--limit", "12", "--declared-license",
                "cc-by-4.0", "--license", "reusable", "--cache", workspace.path("cache"), "--out",
                workspace.path("out"),
            ])
            #expect(reusable.status == 0, "\(reusable.stderr)")
        }
    }

    @Test func albumsAndTheirCoversUnderTheSitesOwnLicenseAreDownloaded() async throws {
        try await withServer { server, workspace in
            let base = await server.baseURL
            let outcome = try await VitrineProcess.run([
                "albums", "--endpoint", base, "--image-endpoint", base, "--users", "1", "--albums", "2",
                "--declared-license", "own", "--cache", workspace.path("cache"), "--out", workspace.path("out"),
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let document = try model(workspace)
            #expect(Set(document.strings("//entry/license/@label")) == ["The site's own"])
            #expect(Set(document.strings("//entry/license/@declared-by")) == ["site"])
            #expect(document.strings("//entry/license/@href").isEmpty)
            #expect(document.strings("//image/@url").isEmpty && !document.strings("//image/@src").isEmpty)
            let site = SiteInspector(root: workspace.url.appendingPathComponent("out"))
            let crawl = try site.crawl()
            #expect(crawl.broken == [])
            for page in crawl.pages {
                let html = try site.page(page)
                #expect(html.strings("//img/@src").allSatisfy { !$0.hasPrefix("http") }, "\(page)")
            }
        }
    }

    @Test func theFeedTakesADeclaredLicenseAndTheSearchRefusesOne() async throws {
        try await withServer { server, workspace in
            let feed = try await runFlickr(server, workspace, ["Hamburg", "--declared-license", "CC0"])
            #expect(feed.status == 0, "\(feed.stderr)")
            let document = try model(workspace)
            #expect(Set(document.strings("//entry/license/@label")) == ["CC0 1.0"])
            #expect(document.strings("//image/@url").isEmpty)

            let search = try await runFlickr(
                server, workspace, ["Hamburg", "--key", Self.key, "--declared-license", "CC0"])
            #expect(search.status == 64, "\(search.stderr)")
            #expect(search.stderr.contains("--declared-license is for Flickr's public feed"), "\(search.stderr)")
        }
    }

    @Test func withoutADeclaredLicenseNothingChanges() async throws {
        try await withServer { server, workspace in
            let outcome = try await VitrineProcess.run([
                "thumbnails", "--endpoint", await server.thumbnailsEndpoint, "--limit", "5", "--cache",
                workspace.path("cache"), "--out", workspace.path("out"),
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let document = try model(workspace)
            #expect(document.strings("//entry/license/@declared-by").isEmpty)
            #expect(Set(document.strings("//entry/license/@copies")) == ["unknown"])
            #expect(document.strings("//image/@src").isEmpty)
        }
    }

    @Test func theConfigKeyDeclaresALicenseAndABadOneIsNamedWithItsLine() async throws {
        try await withServer { server, workspace in
            let config = workspace.path("vitrine.toml")
            func write(_ value: String) async throws {
                try """
                title = "Declared"

                [[gallery]]
                source = "thumbnails"
                endpoint = "\(await server.thumbnailsEndpoint)"
                limit = 6
                declared-license = "\(value)"
                """.write(toFile: config, atomically: true, encoding: .utf8)
            }
            let arguments = [
                "build", "--config", config, "--cache", workspace.path("cache"), "--out", workspace.path("site"),
            ]
            try await write("https://creativecommons.org/licenses/by-sa/4.0/")
            let built = try await VitrineProcess.run(arguments)
            #expect(built.status == 0, "\(built.stderr)")
            let document = try model(workspace, "site/thumbnails")
            #expect(Set(document.strings("//entry/license/@label")) == ["CC BY-SA 4.0"])
            #expect(document.strings("//image/@url").isEmpty)

            try await write("All Rights Reserved")
            let refused = try await VitrineProcess.run(arguments)
            #expect(refused.status == 64, "\(refused.stderr)")
            #expect(
                refused.stderr.contains("vitrine.toml, line 7, key declared-license of the 1st [[gallery]]"),
                "\(refused.stderr)")
            #expect(refused.stderr.contains("“All Rights Reserved” is not one"), "\(refused.stderr)")
        }
    }
}
