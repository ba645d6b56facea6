import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineBasics
@testable import VitrinePublish
@testable import VitrineStore

/// The record that lets a rebuild with unchanged inputs skip its work: what it compares, and that it never outlives
/// a change to the folder it describes.
@Suite struct BuildStateTests {
    let output: TemporaryFolder
    let cache: TemporaryFolder
    let fetched = Date(timeIntervalSince1970: 1_700_000_000)

    init() throws {
        output = try TemporaryFolder()
        cache = try TemporaryFolder()
    }

    func put(_ text: String, _ path: String, in folder: TemporaryFolder) throws {
        try AtomicFile.write(Array(text.utf8), to: folder.url.appendingPathComponent(path))
    }

    /// A state describing `index.html` and `items/1.html` in the output and one cached response.
    func state() throws -> BuildState {
        try put("<p>grid</p>", "index.html", in: output)
        try put("<p>item</p>", "items/1.html", in: output)
        try put("{\"hits\":[]}", "responses/ab/abcd.json", in: cache)
        func stamp(_ path: String, _ folder: TemporaryFolder) throws -> FileStamp {
            try #require(FileStamp.of(folder.url.appendingPathComponent(path).path))
        }
        var summary = BuildSummary()
        summary.items = 1
        summary.pagesUnchanged = 2
        summary.warnings = ["one result had no picture"]
        return BuildState(
            fingerprint: "f1", summary: summary.unchanged,
            responses: [
                .init(
                    path: "responses/ab/abcd.json", stamp: try stamp("responses/ab/abcd.json", cache),
                    fetchedAt: fetched)
            ],
            files: [
                .init(path: "index.html", stamp: try stamp("index.html", output)),
                .init(path: "items/1.html", stamp: try stamp("items/1.html", output)),
            ])
    }

    func isCurrent(
        _ state: BuildState, fingerprint: String = "f1", policy: CachePolicy = CachePolicy(), hoursLater: Double = 1
    ) async -> Bool {
        let now = fetched.addingTimeInterval(hoursLater * 3600)
        return await state.isCurrent(
            fingerprint: fingerprint, output: output.url, cache: cache.url, policy: policy, now: now, scheduleNow: now)
    }

    @Test func readsBackWhatItWrites() async throws {
        var state = try state()
        let bytes = try #require(state.encoded())
        #expect(BuildState(bytes: bytes) == state)
        #expect(BuildState(bytes: bytes)?.summary.upToDate == true)
        #expect(BuildState(bytes: bytes)?.summary.warnings == ["one result had no picture"])
        state.expires = fetched.addingTimeInterval(600)
        #expect(BuildState(bytes: try #require(state.encoded())) == state)
    }

    /// Read without its files, a state gives what tells a build that its answers changed, and stops before the
    /// thousands of file lines; those are read, and checked, only when the answers are current.
    @Test func readWithoutItsFilesItStillTellsWhetherTheAnswersAreCurrent() throws {
        let state = try state()
        let bytes = try #require(state.encoded())
        let answers = try #require(BuildState(bytes: bytes, withFiles: false))
        #expect(answers.files.isEmpty && state.files.count == 2)
        #expect(answers.responses == state.responses && answers.fingerprint == state.fingerprint)
        let now = fetched.addingTimeInterval(3600)
        #expect(
            answers.answersAreCurrent(fingerprint: "f1", cache: cache.url, policy: .init(), now: now, scheduleNow: now))
        #expect(
            !answers.answersAreCurrent(fingerprint: "f2", cache: cache.url, policy: .init(), now: now, scheduleNow: now)
        )
        try put("{\"hits\":[1]}", "responses/ab/abcd.json", in: cache)
        #expect(
            !answers.answersAreCurrent(fingerprint: "f1", cache: cache.url, policy: .init(), now: now, scheduleNow: now)
        )

        // A damaged file line is found when the files are read, and only then.
        let damaged = Array(
            String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "file ", with: "file x").utf8)
        #expect(BuildState(bytes: damaged, withFiles: false) != nil)
        #expect(BuildState(bytes: damaged) == nil)
    }

    @Test func aStateThatExpiresIsCurrentOnlyUntilThen() async throws {
        var state = try state()
        state.expires = fetched.addingTimeInterval(3600 + 600)
        #expect(await isCurrent(state, hoursLater: 1))
        #expect(await !isCurrent(state, hoursLater: 1 + 10.0 / 60), "a random page is due: the build has work to do")
        #expect(await !isCurrent(state, hoursLater: 2))
    }

    /// Each damage is made to a state that reads well without it, so that only the damage can refuse it.
    @Test(arguments: [
        ("", "the whole of it gone"), ("vitrine-state 3\n", "vitrine-state 2\n"), ("\nsummary ", "\nsummery "),
        ("\nsummary {", "\nsummary not json {"), ("file ", "file x"), ("file ", "file -"), (".html\n", ".html"),
        ("index.html\n", "\n"), ("\nresponse 1", "\nresponse soon"),
        ("\nfile ", "\nsomething else\nfile "),
        ("\nfile ", "\nfile 99999999999999999999 "),
    ])
    func refusesAnythingItDidNotWrite(damage: (String, String)) throws {
        let state = try state()
        let text = String(decoding: try #require(state.encoded()), as: UTF8.self)
        #expect(BuildState(bytes: Array(text.utf8)) == state)
        let damaged = damage.0.isEmpty ? "" : text.replacingOccurrences(of: damage.0, with: damage.1)
        #expect(damaged != text)
        #expect(BuildState(bytes: Array(damaged.utf8)) == nil)
    }

    /// The answers come first and the files last: a response listed among the files is not the state's format.
    @Test func aResponseAfterTheFilesIsRefused() throws {
        let state = try state()
        let text = String(decoding: try #require(state.encoded()), as: UTF8.self)
        let lines = text.split(separator: "\n")
        let moved =
            (lines.filter { !$0.hasPrefix("response ") } + lines.filter { $0.hasPrefix("response ") })
            .joined(separator: "\n") + "\n"
        #expect(BuildState(bytes: Array(moved.utf8)) == nil)
    }

    @Test func aPathThatWouldBreakTheLineFormatLeavesNoState() async throws {
        var state = try state()
        state.files.append(.init(path: "two\nlines.html", stamp: state.files[0].stamp))
        #expect(state.encoded() == nil)
    }

    @Test func holdsWhileNothingChanged() async throws {
        #expect(await isCurrent(try state()))
    }

    @Test func anotherFingerprintOrAskingAgainSendsTheBuildTheLongWay() async throws {
        let state = try state()
        #expect(await !isCurrent(state, fingerprint: "f2"))
        #expect(await !isCurrent(state, policy: CachePolicy(refresh: true)))
    }

    @Test func aResponsePastItsFreshnessOnlyHoldsOffline() async throws {
        let state = try state()
        #expect(await !isCurrent(state, hoursLater: 25))
        #expect(await isCurrent(state, policy: CachePolicy(offline: true), hoursLater: 25))
    }

    /// A build whose clock reads before an answer was fetched (`--now` set back, or a clock set back since) does
    /// not take the answer as fresh: it would stay so for as long as the clock stays behind.
    @Test func aResponseFetchedAfterTheBuildsClockIsNotFresh() async throws {
        let state = try state()
        #expect(await isCurrent(state, hoursLater: 0))
        #expect(await !isCurrent(state, hoursLater: -1))
        #expect(await !isCurrent(state, hoursLater: -24 * 365))
        #expect(await isCurrent(state, policy: CachePolicy(offline: true), hoursLater: -1))
    }

    @Test func aResponseTheCacheReplacedSendsTheBuildTheLongWay() async throws {
        let state = try state()
        try put("{\"hits\":[1]}", "responses/ab/abcd.json", in: cache)
        #expect(await !isCurrent(state))
    }

    @Test(arguments: ["removed", "replaced with the same size", "touched"])
    func anOutputFileThatChangedSendsTheBuildTheLongWay(change: String) async throws {
        let state = try state()
        let page = output.url.appendingPathComponent("items/1.html")
        switch change {
        case "removed": try FileManager.default.removeItem(at: page)
        case "replaced with the same size": try put("<p>meti</p>", "items/1.html", in: output)
        default:
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: 1)], ofItemAtPath: page.path)
        }
        #expect(await !isCurrent(state))
    }

    @Test func theWriterRemovesItBeforeItsFirstChangeAndRecordsTheNewOne() async throws {
        let statePath = cache.url.appendingPathComponent("builds/state").path
        let records = OutputRecordPaths(
            state: statePath, verified: cache.url.appendingPathComponent("builds/verified").path,
            temporaryFolder: cache.url)
        var writer = try await OutputWriter(root: output.url, records: records)
        try await writer.begin(planned: ["index.html"])
        try writer.write(Array("one".utf8), to: "index.html")
        try writer.finish()
        await writer.recordState(fingerprint: "f1", summary: BuildSummary(), responses: [])
        let first = try #require(BuildState.read(atPath: statePath))
        #expect(first.files.map(\.path) == ["index.html", OutputManifest.fileName])
        #expect(
            await first.isCurrent(
                fingerprint: "f1", output: output.url, cache: cache.url, policy: .init(), now: Date(),
                scheduleNow: Date()))
        let recorded = FileStamp.of(statePath)

        // Nothing to change: the state stays as it was, not even rewritten.
        writer = try await OutputWriter(root: output.url, records: records)
        try await writer.begin(planned: ["index.html"])
        #expect(try !writer.write(Array("one".utf8), to: "index.html"))
        try writer.finish()
        #expect(FileStamp.of(statePath) == recorded)
        await writer.recordState(fingerprint: "f1", summary: BuildSummary(), responses: [])
        #expect(FileStamp.of(statePath) == recorded)

        // The first change removes it, before the new bytes are in place (as a run killed there would leave it).
        writer = try await OutputWriter(root: output.url, records: records)
        try await writer.begin(planned: ["index.html"])
        try writer.write(Array("two".utf8), to: "index.html")
        #expect(FileStamp.of(statePath) == nil)
        try writer.finish()
        await writer.recordState(fingerprint: "f2", summary: BuildSummary(), responses: [])
        #expect(BuildState.read(atPath: statePath)?.fingerprint == "f2")

        // A build that cannot stand on its cache alone (an answer not cached as served) leaves none.
        writer = try await OutputWriter(root: output.url, records: records)
        try await writer.begin(planned: ["index.html"])
        try writer.finish()
        await writer.recordState(fingerprint: "f2", summary: BuildSummary(), responses: nil)
        #expect(FileStamp.of(statePath) == nil)
    }

    @Test func aFileChangedDuringTheBuildIsNotRecordedAsCurrent() async throws {
        let statePath = cache.url.appendingPathComponent("builds/state").path
        let records = OutputRecordPaths(
            state: statePath, verified: cache.url.appendingPathComponent("builds/verified").path,
            temporaryFolder: cache.url)
        var writer = try await OutputWriter(root: output.url, records: records)
        try await writer.begin(planned: ["index.html", "images/a.jpg"])
        try writer.write(Array("one".utf8), to: "index.html", inputs: "i1")
        try put("jpeg", "images/source.jpg", in: cache)
        try writer.placeImage(
            from: cache.url.appendingPathComponent("images/source.jpg"), sha256: SHA256Hasher.hex(of: "jpeg"),
            byteCount: 4,
            at: "images/a.jpg")
        try writer.finish()
        await writer.recordState(fingerprint: "f1", summary: BuildSummary(), responses: [])

        // The next build takes the stamps it records from what it found at `begin`; someone replaces both files
        // after that, with the same sizes, while the build runs.
        writer = try await OutputWriter(root: output.url, records: records)
        try await writer.begin(planned: ["index.html", "images/a.jpg"])
        try put("two", "index.html", in: output)
        try put("JPEG", "images/a.jpg", in: output)
        #expect(writer.keep("index.html", inputs: "i1"))
        #expect(
            try !writer.placeImage(
                from: cache.url.appendingPathComponent("images/source.jpg"), sha256: SHA256Hasher.hex(of: "jpeg"),
                byteCount: 4,
                at: "images/a.jpg"))
        try writer.finish()
        await writer.recordState(fingerprint: "f1", summary: BuildSummary(), responses: [])
        let state = try #require(BuildState.read(atPath: statePath))
        #expect(
            await !state.isCurrent(
                fingerprint: "f1", output: output.url, cache: cache.url, policy: .init(), now: Date(),
                scheduleNow: Date()))
    }
}
