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
}
