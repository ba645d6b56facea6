import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineBasics
@testable import VitrinePublish
@testable import VitrineStore

@Suite struct OutputWriterTests {
    func write(_ text: String, _ path: String, in folder: TemporaryFolder) throws {
        try AtomicFile.write(Array(text.utf8), to: folder.url.appendingPathComponent(path))
    }

    @Test func leavesUnchangedFilesAlone() async throws {
        let folder = try TemporaryFolder()
        var writer = try await OutputWriter(root: folder.url)
        try await writer.begin(planned: ["items/1.html"])
        #expect(try writer.write(Array("a".utf8), to: "items/1.html"))
        try writer.finish()
        // Dated back a day, so a rewrite would show in the modification time however fast the second run follows.
        let file = folder.url.appendingPathComponent("items/1.html")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -86_400)], ofItemAtPath: file.path)
        let before = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        writer = try await OutputWriter(root: folder.url)
        try await writer.begin(planned: ["items/1.html"])
        #expect(try !writer.write(Array("a".utf8), to: "items/1.html"))
        let after = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        #expect(before == after)
        #expect(try writer.write(Array("b".utf8), to: "items/1.html"))
    }

    @Test(arguments: [
        "../escape.html", "/etc/x", "a/../../b", "", "a//b", "./a", ".vitrine-manifest.json", ".vitrine-journal", "/",
        "a/", "a/.", "a/..", "a/./b", "..", ".",
    ])
    func refusesPathsOutsideTheFolder(path: String) async throws {
        let folder = try TemporaryFolder()
        await #expect(throws: FileWriteError.self) { try await OutputWriter(root: folder.url).write([1], to: path) }
    }

    /// Only "." and ".." are steps out of a name: a name of dots and other names with dots in them are files.
    @Test(arguments: ["...", "a/...", ".hidden/x", "a.b/c..", "..d/e", "x/.y"])
    func writesNamesThatOnlyLookLikeStepsOut(path: String) async throws {
        let folder = try TemporaryFolder()
        let writer = try await OutputWriter(root: folder.url)
        try await writer.begin(planned: [path])
        #expect(try writer.write([1], to: path))
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent(path).path))
    }

    @Test func refusesAFolderHoldingSomeoneElsesFiles() async throws {
        let folder = try TemporaryFolder()
        try write("my notes", "notes.txt", in: folder)
        await #expect {
            try await OutputWriter(root: folder.url)
        } throws: { error in
            (error as? OutputOwnershipError)?.sentence.contains("notes.txt") == true
        }
        let forced = try await OutputWriter(root: folder.url, force: true)
        try await forced.begin(planned: ["index.html"])
        try forced.write(Array("x".utf8), to: "index.html")
        try forced.finish()
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("notes.txt").path))
    }

    @Test func acceptsAFolderWithOnlyAReadmeAndHiddenFilesButNeverTouchesThem() async throws {
        let folder = try TemporaryFolder()
        try write("about", "README.md", in: folder)
        try write("*", ".gitignore", in: folder)
        let writer = try await OutputWriter(root: folder.url)
        try await writer.begin(planned: ["index.html"])
        try writer.write(Array("x".utf8), to: "index.html")
        #expect(try writer.finish().isEmpty)
        #expect(try String(contentsOf: folder.url.appendingPathComponent("README.md"), encoding: .utf8) == "about")
    }

    @Test func refusesToReplaceAFileItDidNotWrite() async throws {
        let folder = try TemporaryFolder()
        let writer = try await OutputWriter(root: folder.url)
        try await writer.begin(planned: ["index.html"])
        try writer.write(Array("x".utf8), to: "index.html")
        try writer.finish()
        try write("mine", "page-2.html", in: folder)
        for force in [false, true] {
            let next = try await OutputWriter(root: folder.url, force: force)
            await #expect {
                try await next.begin(planned: ["index.html", "page-2.html"])
            } throws: { error in
                (error as? ForeignFileInTheWayError)?.files == ["page-2.html"]
            }
        }
        #expect(try String(contentsOf: folder.url.appendingPathComponent("page-2.html"), encoding: .utf8) == "mine")
    }

    @Test func removesOnlyWhatItWroteBefore() async throws {
        let folder = try TemporaryFolder()
        let first = try await OutputWriter(root: folder.url)
        try await first.begin(planned: ["items/a.html", "items/b.html"])
        try first.write(Array("a".utf8), to: "items/a.html")
        try first.write(Array("b".utf8), to: "items/b.html")
        try first.finish()
        try write("keep", "items/user.html", in: folder)
        let second = try await OutputWriter(root: folder.url)
        try await second.begin(planned: ["items/a.html"])
        try second.write(Array("a".utf8), to: "items/a.html")
        #expect(try second.finish() == ["items/b.html"])
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("items/user.html").path))
        let manifest = try #require(OutputManifest.read(in: folder.url))
        #expect(manifest.files == [.init(path: "items/a.html", sha256: SHA256Hasher.hex(of: "a"), size: 1)])
    }

    @Test func aFileWrittenFromTheSameInputsIsKeptWithoutRendering() async throws {
        let folder = try TemporaryFolder()
        let first = try await OutputWriter(root: folder.url)
        try await first.begin(planned: ["a.html", "b.html", "c.html"])
        try first.write(Array("a".utf8), to: "a.html", inputs: "in-a")
        try first.write(Array("b".utf8), to: "b.html", inputs: "in-b")
        try first.write(Array("c".utf8), to: "c.html", inputs: "in-c")
        try first.finish()
        try write("changed by hand", "c.html", in: folder)

        let second = try await OutputWriter(root: folder.url)
        try await second.begin(planned: ["a.html", "b.html", "c.html"])
        #expect(second.keep("a.html", inputs: "in-a"))
        #expect(!second.keep("b.html", inputs: "in-b-changed"))
        #expect(!second.keep("c.html", inputs: "in-c"), "a file that changed is rendered again")
        #expect(!second.keep("missing.html", inputs: "in-a"))
        try second.write(Array("B".utf8), to: "b.html", inputs: "in-b-changed")
        try second.write(Array("c".utf8), to: "c.html", inputs: "in-c")
        #expect(try second.finish() == [])
        let manifest = try #require(OutputManifest.read(in: folder.url))
        #expect(manifest.files.map(\.inputs) == ["in-a", "in-b-changed", "in-c"])
    }

    @Test func removingAFoldersLastFileRemovesTheFolderButNotOneThatHoldsMore() async throws {
        let folder = try TemporaryFolder()
        let first = try await OutputWriter(root: folder.url)
        try await first.begin(planned: ["gone/items/a.html", "kept/items/b.html"])
        try first.write(Array("a".utf8), to: "gone/items/a.html")
        try first.write(Array("b".utf8), to: "kept/items/b.html")
        try first.finish()
        try write("mine", "kept/notes.txt", in: folder)

        let second = try await OutputWriter(root: folder.url)
        try await second.begin(planned: [])
        #expect(try second.finish() == ["gone/items/a.html", "kept/items/b.html"])
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("gone").path))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("kept/items").path))
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("kept/notes.txt").path))
    }

    /// Found by scripts/chaos: a run killed after removing a dropped gallery's last file, before its folder, left
    /// the empty folder for good, since the next run found no file there to remove.
    @Test func aFolderEmptiedByAKilledRunIsRemovedByTheNext() async throws {
        let folder = try TemporaryFolder()
        let first = try await OutputWriter(root: folder.url)
        try await first.begin(planned: ["random/index.html", "random/random.json", "kept/a.html"])
        for path in ["random/index.html", "random/random.json", "kept/a.html"] {
            try first.write(Array(path.utf8), to: path)
        }
        try first.finish()
        // The killed run: both files of random/ removed, its folder not yet.
        for path in ["random/index.html", "random/random.json"] {
            try FileManager.default.removeItem(at: folder.url.appendingPathComponent(path))
        }
        let second = try await OutputWriter(root: folder.url)
        try await second.begin(planned: ["kept/a.html"])
        try second.write(Array("kept/a.html".utf8), to: "kept/a.html")
        #expect(try second.finish() == [])
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("random").path))
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("kept/a.html").path))
    }

    @Test func aManifestOfAnEarlierVersionWithoutGalleriesIsStillRead() async throws {
        let folder = try TemporaryFolder()
        try write(
            #"{"files":[{"path":"index.html","sha256":"ab"}],"generator":"Vitrine 0.1.0"}"#, OutputManifest.fileName,
            in: folder)
        let manifest = try #require(OutputManifest.read(in: folder.url))
        #expect(manifest.files == [.init(path: "index.html", sha256: "ab")])
        #expect(manifest.galleries == [])
    }

    @Test func aRunKilledAfterItsFirstChangeLeavesFilesTheNextRunOwns() async throws {
        let folder = try TemporaryFolder()
        let killed = try await OutputWriter(root: folder.url)
        try await killed.begin(planned: ["index.html", "items/1.html"])
        try killed.write(Array("half".utf8), to: "index.html")
        try killed.write(Array("one".utf8), to: "items/1.html")
        #expect(OutputJournal.isPresent(in: folder.url))
        let next = try await OutputWriter(root: folder.url)
        #expect(next.interrupted)
        try await next.begin(planned: ["index.html"])
        try next.write(Array("whole".utf8), to: "index.html")
        #expect(try next.finish() == ["items/1.html"])
        #expect(try String(contentsOf: folder.url.appendingPathComponent("index.html"), encoding: .utf8) == "whole")
        #expect(!OutputJournal.isPresent(in: folder.url))
        #expect(try await OutputWriter(root: folder.url).interrupted == false)
    }

    /// Finding 1 of the hostile pass: a page rewritten by a killed run with bytes of the same size was kept.
    @Test func aFileReplacedWithTheSameSizeIsNeverKept() async throws {
        let folder = try TemporaryFolder()
        let first = try await OutputWriter(root: folder.url)
        try await first.begin(planned: ["items/5.html", "items/6.html"])
        try first.write(Array("Image 5 of 400".utf8), to: "items/5.html", inputs: "in-5")
        try first.write(Array("Image 6 of 400".utf8), to: "items/6.html", inputs: "in-6")
        try first.finish()
        // A later run, stopped half-way, replaced one page with one of the same size and left the manifest.
        let killed = try await OutputWriter(root: folder.url)
        try await killed.begin(planned: ["items/5.html", "items/6.html"])
        try killed.write(Array("Image 5 of 600".utf8), to: "items/5.html", inputs: "in-5-of-600")

        let next = try await OutputWriter(root: folder.url)
        try await next.begin(planned: ["items/5.html", "items/6.html"])
        #expect(!next.keep("items/5.html", inputs: "in-5"), "its bytes no longer hash to the manifest's digest")
        #expect(next.keep("items/6.html", inputs: "in-6"))
        try next.write(Array("Image 5 of 400".utf8), to: "items/5.html", inputs: "in-5")
        try next.finish()
        let manifest = try #require(OutputManifest.read(in: folder.url))
        for file in manifest.files {
            let bytes = try Data(contentsOf: folder.url.appendingPathComponent(file.path))
            #expect(SHA256Hasher.hex(of: bytes) == file.sha256, "\(file.path)")
        }
    }

    @Test func aFileChangedSinceItWasWrittenIsNotRemoved() async throws {
        let folder = try TemporaryFolder()
        let first = try await OutputWriter(root: folder.url)
        try await first.begin(planned: ["a.html", "b.html"])
        try first.write(Array("a".utf8), to: "a.html")
        try first.write(Array("b".utf8), to: "b.html")
        try first.finish()
        try write("the user's own words", "b.html", in: folder)
        let second = try await OutputWriter(root: folder.url)
        try await second.begin(planned: ["a.html"])
        try second.write(Array("a".utf8), to: "a.html")
        #expect(try second.finish() == [])
        #expect(second.keptChanged == ["b.html"])
        #expect(
            try String(contentsOf: folder.url.appendingPathComponent("b.html"), encoding: .utf8)
                == "the user's own words")
    }

    @Test func neverWritesOrDeletesThroughALinkedFolderEvenWithForce() async throws {
        let folder = try TemporaryFolder()
        let elsewhere = try TemporaryFolder()
        let first = try await OutputWriter(root: folder.url)
        try await first.begin(planned: ["index.html", "items/a.html", "items/b.html"])
        for path in ["index.html", "items/a.html", "items/b.html"] { try first.write(Array(path.utf8), to: path) }
        try first.finish()
        // Someone swaps the folder for a link to files of theirs with the same names.
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("items"))
        try write("precious a", "a.html", in: elsewhere)
        try write("precious b", "b.html", in: elsewhere)
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("items"), withDestinationURL: elsewhere.url)
        for force in [false, true] {
            let writer = try await OutputWriter(root: folder.url, force: force)
            await #expect(throws: FileWriteError.self) {
                try await writer.begin(planned: ["index.html", "items/a.html"])
            }
            let dropping = try await OutputWriter(root: folder.url, force: force)
            try await dropping.begin(planned: ["index.html"])
            try dropping.write(Array("index.html".utf8), to: "index.html")
            #expect(try dropping.finish() == [], "nothing listed is removed through the link")
        }
        #expect(try String(contentsOf: elsewhere.url.appendingPathComponent("a.html"), encoding: .utf8) == "precious a")
        #expect(try String(contentsOf: elsewhere.url.appendingPathComponent("b.html"), encoding: .utf8) == "precious b")
    }

    @Test func aLinkInPlaceOfAFileIsForeignAndNeverWrittenThrough() async throws {
        let folder = try TemporaryFolder()
        let elsewhere = try TemporaryFolder()
        try write("precious", "target.html", in: elsewhere)
        let first = try await OutputWriter(root: folder.url)
        try await first.begin(planned: ["index.html"])
        try first.write(Array("x".utf8), to: "index.html")
        try first.finish()
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("index.html"))
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("index.html"),
            withDestinationURL: elsewhere.url.appendingPathComponent("target.html"))
        for force in [false, true] {
            await #expect(throws: ForeignFileInTheWayError.self) {
                try await OutputWriter(root: folder.url, force: force).begin(planned: ["index.html"])
            }
        }
        #expect(
            try String(contentsOf: elsewhere.url.appendingPathComponent("target.html"), encoding: .utf8) == "precious")
        #expect(
            try FileManager.default.destinationOfSymbolicLink(
                atPath: folder.url.appendingPathComponent("index.html").path)
                == elsewhere.url.appendingPathComponent("target.html").path)
    }

    @Test(arguments: ["{\"files\": [", "not json", "{\"generator\": 1}"])
    func aDamagedManifestIsReportedAsDamaged(text: String) async throws {
        let folder = try TemporaryFolder()
        try write("x", "index.html", in: folder)
        try write(text, OutputManifest.fileName, in: folder)
        await #expect {
            try await OutputWriter(root: folder.url)
        } throws: { error in
            (error as? OutputManifestDamagedError)?.sentence.contains("rebuild it forced") == true
        }
        await #expect(throws: Never.self) { try await OutputWriter(root: folder.url, force: true) }
    }

    @Test func aForcedRebuildOfADamagedManifestReplacesOnlyTheFilesTheCacheSawItWrite() async throws {
        let folder = try TemporaryFolder()
        let cache = try TemporaryFolder()
        let records = OutputRecordPaths(
            state: cache.url.appendingPathComponent("state").path,
            verified: cache.url.appendingPathComponent("verified").path, temporaryFolder: cache.url)
        let first = try await OutputWriter(root: folder.url, records: records)
        try await first.begin(planned: ["index.html"])
        try first.write(Array("x".utf8), to: "index.html")
        try first.finish()
        first.recordVerified()
        try write("not json", OutputManifest.fileName, in: folder)
        try write("mine", "page-2.html", in: folder)
        await #expect(throws: ForeignFileInTheWayError.self) {
            try await OutputWriter(root: folder.url, force: true, records: records)
                .begin(planned: ["index.html", "page-2.html"])
        }
        let forced = try await OutputWriter(root: folder.url, force: true, records: records)
        try await forced.begin(planned: ["index.html"])
        try forced.write(Array("y".utf8), to: "index.html")
        try forced.finish()
        #expect(try String(contentsOf: folder.url.appendingPathComponent("index.html"), encoding: .utf8) == "y")
        #expect(try String(contentsOf: folder.url.appendingPathComponent("page-2.html"), encoding: .utf8) == "mine")
    }

    /// `count` cached images and their placements at `images/N.jpg`, the last one's bytes other than its digest
    /// says when `damagedLast`.
    func cachedImages(_ count: Int, in cache: TemporaryFolder, damagedLast: Bool = false) throws -> [ImagePlacement] {
        try (1...count).map { number in
            let bytes = "jpeg \(number)"
            try write(damagedLast && number == count ? "changed" : bytes, "images/\(number).jpg", in: cache)
            return ImagePlacement(
                source: cache.url.appendingPathComponent("images/\(number).jpg").path,
                sha256: SHA256Hasher.hex(of: bytes), byteCount: bytes.utf8.count, cachedStamp: nil,
                urls: ["https://cdn.example/\(number).jpg"], path: "images/\(number).jpg")
        }
    }

    @Test func imagesArePlacedWhileOtherFilesAreWritten() async throws {
        let (cache, output) = (try TemporaryFolder(), try TemporaryFolder())
        let placements = try cachedImages(200, in: cache)
        let writer = try await OutputWriter(root: output.url)
        try await writer.begin(planned: placements.map(\.path) + (1...50).map { "items/\($0).html" })
        try await writer.placeImages(placements) {
            for number in 1...50 { try writer.write(Array("page \(number)".utf8), to: "items/\(number).html") }
        }
        try writer.finish()
        let manifest = try #require(OutputManifest.read(in: output.url))
        #expect(manifest.files.count == 250)
        for placement in placements {
            let bytes = try #require(
                FileManager.default.contents(atPath: output.url.appendingPathComponent(placement.path).path))
            #expect(SHA256Hasher.hex(of: [UInt8](bytes)) == placement.sha256)
            #expect(manifest.files.first { $0.path == placement.path }?.urls == placement.urls)
        }

        // Placed again, with every image in place already: nothing is copied, so nothing is there to fail.
        try FileManager.default.removeItem(at: cache.url.appendingPathComponent("images"))
        let again = try await OutputWriter(root: output.url)
        try await again.begin(planned: placements.map(\.path))
        try await again.placeImages(placements) {}
        try again.finish()
    }

    @Test func aCachedImageThatChangedIsRefusedOnceThePagesAreWritten() async throws {
        let (cache, output) = (try TemporaryFolder(), try TemporaryFolder())
        let placements = try cachedImages(20, in: cache, damagedLast: true)
        let writer = try await OutputWriter(root: output.url)
        try await writer.begin(planned: placements.map(\.path) + ["index.html"])
        var pagesWritten = false
        await #expect(throws: CachedImageChangedError.self) {
            try await writer.placeImages(placements) {
                try writer.write(Array("home".utf8), to: "index.html")
                pagesWritten = true
            }
        }
        #expect(pagesWritten)
        #expect(!FileManager.default.fileExists(atPath: output.url.appendingPathComponent("images/20.jpg").path))
    }

    @Test func whenTheOtherWorkFailsTheCopiesStopAndItsErrorIsThrown() async throws {
        struct RenderFailed: Error {}
        let (cache, output) = (try TemporaryFolder(), try TemporaryFolder())
        let placements = try cachedImages(2_000, in: cache)
        let writer = try await OutputWriter(root: output.url)
        try await writer.begin(planned: placements.map(\.path))
        await #expect(throws: RenderFailed.self) {
            try await writer.placeImages(placements) { throw RenderFailed() }
        }
        let placed =
            (try? FileManager.default.contentsOfDirectory(atPath: output.url.appendingPathComponent("images").path))
            ?? []
        #expect(placed.count < placements.count)
        #expect(placed.allSatisfy { !$0.hasPrefix(".") })
    }

    @Test func sweepsOnlyOrphanedTemporaryFiles() async throws {
        let folder = try TemporaryFolder()
        try write("x", "items/.a.html.vitrine-999999999-12", in: folder)
        try write("x", ".index.html.vitrine-\(getpid())-5", in: folder)
        try write("x", ".vitrine-notes", in: folder)
        #expect(TemporaryFileSweeper.sweep(folder.url) == 1)
        #expect(
            !FileManager.default.fileExists(
                atPath: folder.url.appendingPathComponent("items/.a.html.vitrine-999999999-12").path))
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent(".vitrine-notes").path))
    }
}
