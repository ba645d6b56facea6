import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineModel
@testable import VitrineSources

/// The history of a site: a snapshot only when results change, items that leave and come back, and a history file
/// that is refused, in one sentence naming it, when it is damaged or hostile.
@Suite struct SiteHistoryTests {
    let day = Date(timeIntervalSince1970: 1_790_000_000)

    func record(_ history: SiteHistory, _ ids: [String], path: String = "hamburg/", days: Double)
        -> (SiteHistory, SiteHistory.Snapshot?)
    {
        history.recording([(path, ids)], at: day.addingTimeInterval(days * 86_400))
    }

    @Test func itemsThatComeLeaveAndComeBackAreRecordedOnlyWhenTheResultsChange() throws {
        let (first, one) = record(.empty, ["a", "b", "c"], days: 0)
        #expect(one?.number == 1)
        #expect(one?.galleries == [.init(path: "hamburg/", added: ["a", "b", "c"], removed: [])])

        let (same, none) = record(first, ["a", "b", "c"], days: 1)
        #expect(none == nil)
        #expect(same == first)

        let (second, two) = record(first, ["a", "d", "b"], days: 2)
        #expect(two?.galleries == [.init(path: "hamburg/", added: ["d"], removed: ["c"])])
        let (third, three) = record(second, ["a", "d", "b", "c"], days: 3)
        #expect(three?.galleries == [.init(path: "hamburg/", added: ["c"], removed: [])])
        #expect(third.snapshots.map(\.number) == [1, 2, 3])
        #expect(
            third.snapshots.map(\.time) == ["2026-09-21T14:13:20Z", "2026-09-23T14:13:20Z", "2026-09-24T14:13:20Z"])

        let items = try #require(third.galleries.first?.items)
        #expect(items.map(\.id) == ["a", "d", "b", "c"])
        // c was first seen in snapshot 1, gone in 2 and back in 3.
        #expect(items.first { $0.id == "c" } == .init(id: "c", firstSeen: 1, lastSeen: 3, current: true))
        #expect(
            second.galleries[0].items.first { $0.id == "c" }
                == .init(id: "c", firstSeen: 1, lastSeen: 1, current: false))
        #expect(items.first { $0.id == "d" }?.firstSeen == 2)
    }

    @Test func aGalleryLeftOutOfABuildKeepsItsHistoryAndOnlyChangedGalleriesAreInASnapshot() {
        let (first, _) = SiteHistory.empty.recording([("a/", ["1"]), ("b/", ["2"])], at: day)
        let (second, snapshot) = first.recording([("a/", ["1", "3"])], at: day.addingTimeInterval(60))
        #expect(snapshot?.galleries.map(\.path) == ["a/"])
        #expect(second.galleries.map(\.path) == ["a/", "b/"])
        #expect(second.galleries[1].items == [.init(id: "2", firstSeen: 1, lastSeen: 1, current: true)])
    }

    @Test func theFileRoundTripsAndTheSameHistoryIsTheSameBytes() throws {
        let (history, _) = record(.empty, ["195893", "x y"], days: 0)
        let bytes = history.encoded()
        #expect(try SiteHistory.decode(bytes, file: "history.json") == history)
        #expect(record(.empty, ["195893", "x y"], days: 0).0.encoded() == bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\"first-seen\" : 1"))
        #expect(text.hasPrefix("{\n  \"format\" : \"vitrine-history\""))
    }

    @Test(arguments: [
        ("not json", "it is not a Vitrine history (it is not valid JSON)"),
        (#"{"format":"other","version":1,"snapshots":[],"galleries":[]}"#, "its format is not vitrine-history"),
        (#"{"format":"vitrine-history","version":2,"snapshots":[],"galleries":[]}"#, "version 2 of the format"),
        (#"{"format":"vitrine-history","version":1.5,"snapshots":[],"galleries":[]}"#, "version 1.5 of the format"),
        (
            #"{"format":"vitrine-history","version":1,"snapshots":[{"number":1.5,"time":"2026-01-01T00:00:00Z","galleries":[]}],"galleries":[]}"#,
            "it holds a number of another kind than expected"
        ),
        (
            #"{"format":"vitrine-history","version":1,"snapshots":[{"number":1,"time":"2026-02-30T00:00:00Z","galleries":[]}],"galleries":[]}"#,
            "not RFC 3339 UTC"
        ),
        (
            #"{"format":"vitrine-history","version":1,"snapshots":[{"number":2,"time":"2026-01-01T00:00:00Z","galleries":[]}],"galleries":[]}"#,
            "not numbered 1, 2, 3"
        ),
        (
            #"{"format":"vitrine-history","version":1,"snapshots":[{"number":1,"time":"yesterday","galleries":[]}],"galleries":[]}"#,
            "not RFC 3339 UTC"
        ),
        (
            #"{"format":"vitrine-history","version":1,"snapshots":[{"number":1,"time":"2026-01-02T00:00:00Z","galleries":[]},{"number":2,"time":"2026-01-01T00:00:00Z","galleries":[]}],"galleries":[]}"#,
            "older than the one before it"
        ),
        (
            #"{"format":"vitrine-history","version":1,"snapshots":[{"number":1,"time":"2026-01-01T00:00:00Z","galleries":[{"path":"../../etc/","added":["1"],"removed":[]}]}],"galleries":[]}"#,
            "names the folder “../../etc/”"
        ),
        (
            #"{"format":"vitrine-history","version":1,"snapshots":[],"galleries":[{"path":"/abs/","items":[]}]}"#,
            "names the folder “/abs/”"
        ),
        (
            #"{"format":"vitrine-history","version":1,"snapshots":[{"number":1,"time":"2026-01-01T00:00:00Z","galleries":[{"path":"a/","added":["x\u0007y"],"removed":[]}]}],"galleries":[]}"#,
            "an item id that is not one"
        ),
        (
            #"{"format":"vitrine-history","version":1,"snapshots":[],"galleries":[{"path":"a/","items":[{"id":"1","first-seen":1,"last-seen":9,"current":true}]}]}"#,
            "seen in snapshots the history does not have"
        ),
    ])
    func aDamagedOrHostileFileIsRefusedNamingIt(text: String, expected: String) {
        let error = #expect(throws: HistoryFileError.self) {
            try SiteHistory.decode(Array(text.utf8), file: "public/history.json")
        }
        let sentence = error?.sentence ?? ""
        #expect(sentence.hasPrefix("The history public/history.json cannot be used: "), "\(sentence)")
        #expect(sentence.contains(expected), "\(sentence)")
    }

    /// The rights an archived record holds are checked like everything else in the file: a hostile history cannot
    /// make Vitrine keep a copy of a picture whose license does not allow one, nor look for its bytes, nor put a
    /// link that is not a web link on a page.
    @Test(arguments: [
        (
            #"{"license":{"name":"All Rights Reserved","label":"All rights reserved","copies":"forbidden"},"tile":"#
                + #"{"url":"https://x.example/1.jpg","sha256":"\#(String(repeating: "a", count: 64))","type":"image/jpeg","bytes":5},"#
                + #""full":{"url":"https://x.example/2.jpg"}}"#,
            "keeps a copy of a picture its license does not let be copied"
        ),
        (
            #"{"license":{"name":"CC BY 2.0","label":"CC BY 2.0","copies":"allowed"},"tile":"#
                + #"{"url":"https://x.example/1.jpg"},"full":{"url":"https://x.example/2.jpg"}}"#,
            "names an image by something other than a SHA-256"
        ),
        (
            #"{"license":{"name":"CC","label":"CC","url":"javascript:alert(1)","copies":"unknown"},"tile":"#
                + #"{"url":"https://x.example/1.jpg"},"full":{"url":"https://x.example/2.jpg"}}"#,
            "has a license link that is not a web link"
        ),
        (
            #"{"license":{"name":"","label":"x","copies":"unknown"},"tile":"#
                + #"{"url":"https://x.example/1.jpg"},"full":{"url":"https://x.example/2.jpg"}}"#,
            "has a license without a name"
        ),
        (
            #"{"credit":{"name":"a","author-url":"file:///etc/passwd"},"license":{"name":"n","label":"l","copies":"unknown"},"#
                + #""tile":{"url":"https://x.example/1.jpg"},"full":{"url":"https://x.example/2.jpg"}}"#,
            "has a credit link that is not a web link"
        ),
        (
            #"{"license":{"name":"n","label":"l","copies":"forbidden"},"tile":{"url":"javascript:alert(1)"},"#
                + #""full":{"url":"https://x.example/2.jpg"}}"#,
            "has an image URL that is not a web link"
        ),
    ])
    func anArchivedRecordsRightsAreChecked(entry: String, expected: String) {
        let fields = String(entry.dropFirst().dropLast())
        let text =
            #"{"format":"vitrine-history","version":1,"snapshots":[{"number":1,"time":"2026-01-01T00:00:00Z","#
            + #""galleries":[{"path":"a/","added":["1"],"removed":[]}]}],"galleries":[{"path":"a/","items":[{"id":"1","#
            + #""first-seen":1,"last-seen":1,"current":true,"record":{"entries":[{"variant":"original","caption":"c","#
            + fields + "}]}}]}]}"
        let error = #expect(throws: HistoryFileError.self) { try SiteHistory.decode(Array(text.utf8), file: "h.json") }
        #expect(error?.sentence.contains(expected) == true, "\(error?.sentence ?? "")")
    }

    /// Every URL of an archived record goes into pages as it stands, so one that is not valid as it stands (which
    /// Vitrine never writes) is refused, never mended or cut: in a `srcset` a space or a comma would add candidates.
    @Test(arguments: [
        "https://x.example/a.jpg 1w, data:image/png;base64,AAAA 2w, /evil.jpg", "https://x.example/a\nb.jpg",
        "https://x.example/\"><b>.jpg", "https://x.example/a.jpg,", "https://user:secret@x.example/a.jpg",
        "https://x.example/" + String(repeating: "a", count: 2_000),
    ])
    func anArchivedURLThatIsNotValidAsItStandsIsRefused(url: String) {
        func record(tile: String = "https://x.example/1.jpg", credit: String? = nil, license: String? = nil)
            -> SiteHistory.ArchivedItem
        {
            var archivedLicense = SiteHistory.ArchivedLicense(
                License(id: nil, name: "n", label: "l", url: nil, copies: .unknown))
            archivedLicense.url = license
            return .init(entries: [
                .init(
                    variant: "original", caption: "c", credit: .init(name: "a", url: credit, role: nil),
                    tile: .init(shownFrom: tile, width: 640, height: 480),
                    full: .init(shownFrom: "https://x.example/2.jpg", width: nil, height: nil),
                    license: archivedLicense)
            ])
        }
        #expect(SiteHistory.problem(of: record()) == nil)
        #expect(SiteHistory.problem(of: record(tile: url)) == "has an image URL that is not a web link")
        #expect(SiteHistory.problem(of: record(credit: url)) == "has a credit link that is not a web link")
        #expect(SiteHistory.problem(of: record(license: url)) == "has a license link that is not a web link")
    }

    @Test func aPictureShownFromItsOwnURLIsKeptWithoutACopy() throws {
        let entry = SiteHistory.ArchivedEntry(
            variant: "original", caption: "c",
            credit: .init(name: "a", url: nil, role: nil, authorURL: "https://a.example/"),
            tile: .init(shownFrom: "https://x.example/1.jpg", width: 640, height: 480),
            full: .init(shownFrom: "https://x.example/2.jpg", width: nil, height: nil),
            license: .init(.flickr(id: "0", name: "All Rights Reserved", url: "")))
        #expect(SiteHistory.problem(of: .init(entries: [entry])) == nil)
        let encoded = try JSONEncoder().encode(entry)
        #expect(try JSONDecoder().decode(SiteHistory.ArchivedEntry.self, from: encoded) == entry)
        #expect(!String(decoding: encoded, as: UTF8.self).contains("sha256"))
    }

    /// A license the site declared (`--declared-license`) stays declared in the archive, and one the source gave
    /// carries no mark.
    @Test func aDeclaredLicenseIsArchivedAsDeclared() throws {
        let declared = try #require(License.declaredBySite("CC BY 4.0"))
        for license in [declared, .pixabay] {
            let archived = SiteHistory.ArchivedLicense(license)
            let encoded = try JSONEncoder().encode(archived)
            #expect(try JSONDecoder().decode(SiteHistory.ArchivedLicense.self, from: encoded).license == license)
            #expect(String(decoding: encoded, as: UTF8.self).contains("declared-by-site") == license.declaredBySite)
        }
    }

    /// A snapshot dated past the build's clock would date every later one: a day's skew is taken (clocks of machines
    /// that take turns publishing differ), more is refused in a sentence that names the snapshot and the file.
    @Test func aSnapshotMoreThanADayPastTheBuildsClockIsRefused() throws {
        let (history, _) = record(.empty, ["a"], days: 1)
        // Exactly the allowance ahead, and seconds ahead, are taken.
        try history.checkTimes(notPast: day.addingTimeInterval(86_400 - SiteHistory.clockSkewAllowance), file: "h.json")
        try history.checkTimes(notPast: day.addingTimeInterval(86_400 - 30), file: "h.json")
        do {
            try history.checkTimes(notPast: day.addingTimeInterval(-1), file: "h.json")
            Issue.record("a snapshot a day and a second ahead was taken")
        } catch {
            #expect(
                error.sentence
                    == "The history h.json cannot be used: snapshot 1 is dated 2026-09-22T14:13:20Z, more than a day "
                    + "past this build's clock (2026-09-21T14:13:19Z); fix or remove it, or start from another "
                    + "publish's history.")
        }
        let (far, _) = history.recording([("hamburg/", ["b"])], at: Date(timeIntervalSince1970: 253_402_214_400))
        #expect(throws: HistoryFileError.self) { try far.checkTimes(notPast: day, file: "h.json") }
        // Within the allowance, the next snapshot is dated no earlier than it: time never runs backwards.
        let (next, _) = record(history, ["b"], days: 0.5)
        #expect(next.snapshots.map(\.time) == ["2026-09-22T14:13:20Z", "2026-09-22T14:13:20Z"])
    }

    @Test func aLargerFileThanTheLimitIsRefusedUnread() {
        let bytes = [UInt8](repeating: UInt8(ascii: " "), count: SiteHistory.maximumBytes + 1)
        #expect(throws: HistoryFileError.self) { try SiteHistory.decode(bytes, file: "h.json") }
    }

    @Test func theChangesPageReadsTheSnapshotsAndTheItemsTheyAddedAndOtherPagesOnlyItsLink() throws {
        var gallery = sampleGallery()
        let before = Dictionary(uniqueKeysWithValues: gallery.pages(salt: "t").map { ($0.job.id, $0.inputs) })
        gallery.changesHref = "changes.html"
        let linked = Dictionary(uniqueKeysWithValues: gallery.pages(salt: "t").map { ($0.job.id, $0.inputs) })
        // Every page shows the link, so every page's inputs change once.
        #expect(before.keys.allSatisfy { before[$0] != linked[$0] })

        let added = gallery.allItems.prefix(2).map(\.id)
        gallery.snapshots = [
            .init(number: 2, time: "2026-01-02T00:00:00Z", addedItems: added, addedCount: 3, removedCount: 1),
            .init(number: 1, time: "2026-01-01T00:00:00Z", addedItems: [], addedCount: 0, removedCount: 0),
        ]
        // A new snapshot changes the "What's new" page only.
        #expect(Dictionary(uniqueKeysWithValues: gallery.pages(salt: "t").map { ($0.job.id, $0.inputs) }) == linked)
        let page = try #require(gallery.changesPages(salt: "t").first)
        #expect(page.job == .init(kind: .changes, id: "changes", href: "changes.html"))
        #expect(page.items.map(\.id) == added)
        #expect(page.snapshots.count == 2)
        var later = gallery
        later.snapshots.insert(
            .init(number: 3, time: "2026-01-03T00:00:00Z", addedItems: [], addedCount: 0, removedCount: 2), at: 0)
        #expect(later.changesPages(salt: "t").first?.inputs != page.inputs)
        #expect(gallery.changesPages(salt: "t").first?.inputs == page.inputs)
    }
}
