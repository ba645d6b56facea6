import Foundation
import Testing

@testable import VitrinePipeline
@testable import VitrineRender

/// The tags a shard's record carries for the site's tag pages: a merge refuses any it would not have written, and
/// still merges a record from before them.
extension ShardedSiteTests {
    @Test func aMergeRefusesTagsAShardWouldNotWriteAndMergesARecordWithoutThem() async throws {
        try await stopping(self) {
            try await writeConfig()
            try await buildShards(3)
            let recordURL = workspace.url.appendingPathComponent("shard-2/" + ShardRecord.fileName)
            let original = try Data(contentsOf: recordURL)
            #expect(
                try JSONDecoder().decode(ShardRecord.self, from: original).galleries[0].tags?.items.isEmpty == false)
            let hostile: [(String, (inout ShardRecord.Tags) -> Void)] = [
                ("upper case", { $0.items[0].tags[0] = "Harbour" }),
                ("10,000 characters", { $0.items[0].tags[0] = String(repeating: "a", count: 10_000) }),
                ("bidi control", { $0.items[0].tags[0] = "evil\u{202E}gpj.exe" }),
                ("control character", { $0.items[0].tags[0] = "bell\u{7}" }),
                ("too many tags", { $0.items[0].tags = (0..<21).map { "tag\($0)" } }),
                ("a tag twice", { $0.items[0].tags = ["same", "same"] }),
                ("no tags", { $0.items[0].tags = [] }),
                ("an item twice", { $0.items.append($0.items[0]) }),
                ("markup for an item", { $0.items[0].xml = ["<script", "#alert(1)", ">"] }),
                ("another item's element", { $0.items[0].xml = $0.items[1].xml }),
                ("an unclosed item", { $0.items[0].xml.removeLast() }),
                ("no page size", { $0.perPage = 0 }),
            ]
            for (name, change) in hostile {
                var record = try JSONDecoder().decode(ShardRecord.self, from: original)
                change(&record.galleries[0].tags!)
                try Data(try record.encoded()).write(to: recordURL)
                let outcome = try await merge(["shard-1", "shard-2", "shard-3"], out: "hostile")
                #expect(outcome.status == ExitStatus.badData.rawValue, "\(name): \(outcome.stderr)")
                #expect(outcome.stderr.contains("the tags of its gallery berlin/"), "\(name): \(outcome.stderr)")
                #expect(outcome.stderr.split(separator: "\n").count == 1, "\(name): \(outcome.stderr)")
            }
            // Tags of the wrong types: the record cannot be read.
            var json = try #require(try JSONSerialization.jsonObject(with: original) as? [String: Any])
            var galleries = try #require(json["galleries"] as? [[String: Any]])
            galleries[0]["tags"] = ["perPage": "many", "items": 42]
            json["galleries"] = galleries
            try JSONSerialization.data(withJSONObject: json).write(to: recordURL)
            let typed = try await merge(["shard-1", "shard-2", "shard-3"], out: "hostile")
            #expect(typed.status == ExitStatus.badData.rawValue, "\(typed.stderr)")
            #expect(typed.stderr.contains("cannot be read"), "\(typed.stderr)")
            #expect(try workspace.tree("hostile").keys.filter { !$0.hasPrefix(".") } == [])

            // A record from before tags: the merge takes its gallery as one without tagged items.
            var older = try JSONDecoder().decode(ShardRecord.self, from: original)
            older.galleries[0].tags = nil
            try Data(try older.encoded()).write(to: recordURL)
            #expect(!String(decoding: try Data(contentsOf: recordURL), as: UTF8.self).contains("\"tags\""))
            let merged = try await merge(["shard-1", "shard-2", "shard-3"], out: "older")
            #expect(merged.status == 0, "\(merged.stderr)")
            let tree = try workspace.tree("older")
            #expect(tree["tags/index.html"] != nil)
            func tags(_ model: Data?) throws -> Set<String> {
                Set(try LibXMLDocument.parse([UInt8](try #require(model))).strings("//tags/tag/@name"))
            }
            let berlinOnly = try tags(tree["berlin/gallery.xml"]).subtracting(try tags(tree["hamburg/gallery.xml"]))
            let siteTags = try tags(tree["site.xml"])
            #expect(!berlinOnly.isEmpty && !siteTags.isEmpty && siteTags.isDisjoint(with: berlinOnly))
        }
    }
    /// The items a shard records for the site's tag pages go into pages as they are: each URL must be a web URL as
    /// it stands and each path one of the gallery's pages or the shard's images, or the merge refuses the shard.
    @Test func aMergeRefusesRecordedItemsWhoseLinksLeaveTheSiteOrAreNotWebURLs() async throws {
        try await stopping(self) {
            try await writeConfig()
            try await buildShards(3)
            let recordURL = workspace.url.appendingPathComponent("shard-2/" + ShardRecord.fileName)
            let original = try Data(contentsOf: recordURL)
            /// The item's lines with the first attribute `name` of an element `element` set to `value`.
            func setting(_ element: String, _ name: String, to value: String) -> (inout [String]) -> Void {
                { lines in
                    guard let start = lines.firstIndex(of: "<" + element),
                        let line = lines[start...].firstIndex(where: { $0.hasPrefix("@" + name + "=") })
                    else {
                        Issue.record("no \(element)@\(name) in \(lines)")
                        return
                    }
                    lines[line] = "@" + name + "=" + value
                }
            }
            /// The item's lines with its first picture's URL (berlin's pictures are shown from their own URLs)
            /// replaced by the attribute `line`.
            func picture(_ line: String) -> (inout [String]) -> Void {
                { lines in
                    guard let index = lines.firstIndex(where: { $0.hasPrefix("@url=") }) else {
                        Issue.record("no picture URL in \(lines)")
                        return
                    }
                    lines[index] = line
                }
            }
            let hostile: [(String, (inout [String]) -> Void)] = [
                ("a javascript: picture", picture("@url=javascript:alert(1)")),
                ("a picture URL that splits a srcset", picture("@url=https://x.example/a.jpg 1w, data:image/png,A 2w")),
                ("a picture URL with a line break", picture("@url=https://x.example/a\n.jpg")),
                ("a picture out of the site", picture("@src=../../evil.jpg")),
                ("a picture not the shard's", picture("@src=images/00/evil.jpg")),
                ("a tile link out of the site", setting("entry", "href", to: "../../evil.html")),
                ("a tile link of another scheme", setting("entry", "href", to: "javascript:alert(1)")),
                ("a credit link of another scheme", setting("credit", "href", to: "javascript:alert(1)")),
                ("a credit link with a quote", setting("credit", "href", to: "https://x.example/\"onmouseover=\"x")),
            ]
            for (name, change) in hostile {
                var record = try JSONDecoder().decode(ShardRecord.self, from: original)
                change(&record.galleries[0].tags!.items[0].xml)
                try Data(try record.encoded()).write(to: recordURL)
                let outcome = try await merge(["shard-1", "shard-2", "shard-3"], out: "hostile")
                #expect(outcome.status == ExitStatus.badData.rawValue, "\(name): \(outcome.stderr)")
                #expect(outcome.stderr.contains("the tags of its gallery berlin/"), "\(name): \(outcome.stderr)")
                #expect(outcome.stderr.split(separator: "\n").count == 1, "\(name): \(outcome.stderr)")
            }
            // A card's cover shown from a URL that is not one as it stands.
            var record = try JSONDecoder().decode(ShardRecord.self, from: original)
            record.galleries[0].card.cover = .init(
                path: "", mediaType: "", width: 640, height: 427, url: "https://x.example/a.jpg 1w, /evil.jpg 2w")
            try Data(try record.encoded()).write(to: recordURL)
            let cover = try await merge(["shard-1", "shard-2", "shard-3"], out: "hostile")
            #expect(cover.status == ExitStatus.badData.rawValue, "\(cover.stderr)")
            #expect(try workspace.tree("hostile").keys.filter { !$0.hasPrefix(".") } == [])
            // The record as the shard wrote it merges.
            try original.write(to: recordURL)
            let merged = try await merge(["shard-1", "shard-2", "shard-3"], out: "merged")
            #expect(merged.status == 0, "\(merged.stderr)")
        }
    }
}
