import Testing
import VitrineSources

@testable import VitrinePipeline

/// Which shard a gallery is built in follows from its folder alone: the same folder always lands on the same shard,
/// whatever else the site holds and wherever the gallery stands in the config.
@Suite struct SiteShardTests {
    static let folders = (1...300).map { "gallery-\($0)/" }

    @Test func aShardIsOneToN() {
        #expect(SiteShard(number: 2, of: 3) != nil)
        #expect(SiteShard(number: 1, of: 1) != nil)
        for (number, count) in [(0, 3), (4, 3), (1, 0), (-1, 2)] {
            #expect(SiteShard(number: number, of: count) == nil, "\(number)/\(count)")
        }
    }

    @Test func theShardOfAFolderIsFixedAndInRange() {
        // Worked out once: a change here would move every user's galleries between shards.
        #expect(
            ["hamburg/", "berlin/", "press/", "people/"].map { SiteShard.number(of: $0, count: 3) } == [1, 2, 1, 3])
        for count in 1...7 {
            for folder in Self.folders {
                let number = SiteShard.number(of: folder, count: count)
                #expect((1...count).contains(number))
                #expect(SiteShard.number(of: folder, count: count) == number)
            }
        }
    }

    @Test func everyGalleryIsInExactlyOneShardAndTheyShareThemOut() throws {
        let count = 3
        let shards = (1...count).map { SiteShard(number: $0, of: count)! }
        var sizes: [Int] = []
        for shard in shards {
            sizes.append(Self.folders.filter { folder in shard.holds(Self.part(folder)) }.count)
        }
        #expect(sizes.reduce(0, +) == Self.folders.count)
        // 300 folders over 3 shards: none has fewer than 70 or more than 130.
        #expect(sizes.allSatisfy { (70...130).contains($0) }, "\(sizes)")
    }

    @Test func addingOrReorderingGalleriesMovesNoneOfTheOthers() {
        let before = Dictionary(uniqueKeysWithValues: Self.folders.map { ($0, SiteShard.number(of: $0, count: 4)) })
        let grown = (Self.folders + ["new-1/", "new-2/"]).shuffled()
        for folder in grown where before[folder] != nil {
            #expect(SiteShard.number(of: folder, count: 4) == before[folder])
        }
    }

    /// A shard's feed time goes into the feed's `<updated>`: only a time RFC 3339 can write is one (a merge refuses
    /// the others as a damaged shard).
    @Test func aFeedTimeIsOneOnlyFrom1970ToTheEndOf9999() {
        func entry(_ updated: Double?) -> ShardRecord.FeedEntry {
            .init(path: "a/index.html", title: "A", summary: "", updated: updated)
        }
        for updated in [nil, 0, 1_700_000_000.5, 253_402_300_799] {
            #expect(entry(updated).hasWritableTime, "\(updated.map(String.init(describing:)) ?? "none")")
        }
        for updated in [1e20, -1e12, -1, 253_402_300_800, .infinity, .nan] {
            #expect(!entry(updated).hasWritableTime, "\(updated)")
        }
    }

    static func part(_ folder: String) -> SitePart {
        .gallery(GalleryPlan(folder: folder, source: ThumbnailSource(limit: 1), label: folder, itemsPerPage: 10))
    }
}
