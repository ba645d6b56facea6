import Foundation
import Testing
import VitrineModel

@testable import VitrinePipeline

/// The search entries a shard's record carries for the site's index: a merge refuses entries that leave their
/// gallery, show another shard's picture or are longer than Vitrine writes.
extension ShardedSiteTests {
    @Test func aShardWhoseSearchEntriesLeaveTheirGalleryIsRefused() async throws {
        try await stopping(self) {
            try await writeConfig()
            try await buildShards(3)
            let recordURL = workspace.url.appendingPathComponent("shard-2/" + ShardRecord.fileName)
            let original = try Data(contentsOf: recordURL)
            #expect(try JSONDecoder().decode(ShardRecord.self, from: original).galleries[0].search?.isEmpty == false)
            let hostile: [(String, (inout [SearchIndex.Entry]) -> Void)] = [
                ("another gallery's page", { $0[0].page = "hamburg/index.html" }),
                ("a page outside the site", { $0[0].page = "../escaped.html" }),
                ("a script address", { $0[0].page = "javascript:alert(1)//.html" }),
                ("a page twice", { $0.append($0[0]) }),
                ("another shard's picture", { $0[0].image = "images/0000.jpg" }),
                ("a script picture", { $0[0].image = "javascript:alert(1)" }),
                ("a long caption", { $0[0].caption = String(repeating: "a", count: 10_000) }),
                ("long words", { $0[0].words = String(repeating: "w ", count: 1_000) }),
                ("a negative size", { $0[0].width = -1 }),
            ]
            for (name, change) in hostile {
                var record = try JSONDecoder().decode(ShardRecord.self, from: original)
                change(&record.galleries[0].search!)
                try Data(try record.encoded()).write(to: recordURL)
                let outcome = try await merge(["shard-1", "shard-2", "shard-3"], out: "hostile")
                #expect(outcome.status == ExitStatus.badData.rawValue, "\(name): \(outcome.stderr)")
                #expect(
                    outcome.stderr.contains("the search entries of its gallery berlin/"), "\(name): \(outcome.stderr)")
            }
            #expect(try workspace.tree("hostile").keys.filter { !$0.hasPrefix(".") } == [])
            // Markup in a caption is merged, as data.
            var record = try JSONDecoder().decode(ShardRecord.self, from: original)
            record.galleries[0].search![0].caption = "</script><script>alert(1)</script>"
            try Data(try record.encoded()).write(to: recordURL)
            let merged = try await merge(["shard-1", "shard-2", "shard-3"], out: "markup")
            #expect(merged.status == 0, "\(merged.stderr)")
            let index = try String(
                contentsOf: workspace.url.appendingPathComponent("markup/search-index.js"), encoding: .utf8)
            #expect(index.contains("\\u003c/script\\u003e") && !index.contains("</script>"))
        }
    }
}
