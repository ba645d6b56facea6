import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineBasics
@testable import VitrinePublish
@testable import VitrineStore

/// The cache's copy of the manifest's files: read back exactly as the manifest decodes, refused whole when damaged,
/// and taken only for the manifest whose bytes it was made from.
@Suite struct ManifestCopyTests {
    static let digest = String(repeating: "ab", count: 32)

    static let files: [OutputManifest.File] = [
        .init(path: "index.html", sha256: digest, size: 1234, inputs: String(repeating: "0f", count: 32)),
        .init(path: "items/a b  c\t\u{7}\\ é 漢 🙂 -.html", sha256: digest),
        .init(path: "images/ab/x.jpg", sha256: digest, size: 0, urls: ["https://x.org/1.jpg", "a b\tc", "-"]),
        .init(path: "images/ab/y.jpg", sha256: digest, size: 7, urls: []),
        .init(path: "-", sha256: "0", inputs: "1"),
    ]

    @Test func readsBackWhatItWrote() throws {
        let copy = ManifestCopy(manifestSHA256: Self.digest, galleriesDigest: "1", files: Self.files)
        let bytes = try #require(copy.encoded())
        #expect(ManifestCopy(bytes: bytes) == copy)
        // The same files as decoding the manifest gives.
        let manifest = OutputManifest(files: Self.files)
        let decoded = try JSONDecoder().decode(OutputManifest.self, from: Data(manifest.encoded()))
        #expect(Set(ManifestCopy(bytes: bytes)?.files ?? []) == Set(decoded.files))
    }

    @Test(arguments: [
        OutputManifest.File(path: "a\nb.html", sha256: digest),
        OutputManifest.File(path: "", sha256: digest),
        OutputManifest.File(path: "a.jpg", sha256: digest, urls: ["https://x.org/\n"]),
        OutputManifest.File(path: "a.jpg", sha256: digest, urls: [""]),
        OutputManifest.File(path: "a.html", sha256: ""),
        OutputManifest.File(path: "a.html", sha256: "ABC"),
        OutputManifest.File(path: "a.html", sha256: digest, inputs: "not hex"),
    ])
    func aManifestItCannotHoldLineForLineHasNoCopy(file: OutputManifest.File) {
        #expect(ManifestCopy(manifestSHA256: Self.digest, galleriesDigest: "1", files: [file]).encoded() == nil)
    }

    @Test func aDamagedCopyIsNoCopy() throws {
        let bytes = try #require(
            ManifestCopy(manifestSHA256: Self.digest, galleriesDigest: "1", files: Self.files).encoded())
        let text = String(decoding: bytes, as: UTF8.self)
        let damaged = [
            Array(bytes.dropLast()),
            Array(bytes.prefix(bytes.count / 2)),
            Array(text.replacingOccurrences(of: "vitrine-manifest-files 1", with: "vitrine-manifest-files 2").utf8),
            Array(text.replacingOccurrences(of: " 3 images", with: " 9 images").utf8),
            Array(text.replacingOccurrences(of: " 1234 ", with: " -1234 ").utf8),
            Array(text.replacingOccurrences(of: "https://x.org/1.jpg", with: "").utf8),
            Array(text.replacingOccurrences(of: "manifest \(Self.digest)", with: "manifest XYZ").utf8),
            Array((text + "stray line\n").utf8),
            Array(text.replacingOccurrences(of: "1234", with: "1235").utf8),
            Array(text.replacingOccurrences(of: "/1.jpg", with: "/2.jpg").utf8),
        ]
        for bytes in damaged { #expect(ManifestCopy(bytes: bytes) == nil) }
    }

    /// A folder built with records, then surveyed again: the files come from the copy while the manifest is the one
    /// it was made from, and from the manifest itself once that changed in any way.
    @Test func theSurveyTakesTheCopyOnlyForTheManifestItWasMadeFrom() async throws {
        let output = try TemporaryFolder()
        let cache = try TemporaryFolder()
        let records = OutputRecordPaths(
            state: cache.url.appendingPathComponent("state").path,
            verified: cache.url.appendingPathComponent("verified").path, temporaryFolder: cache.url,
            manifestCopy: cache.url.appendingPathComponent("files").path)
        let gallery = OutputManifest.Gallery(
            path: "", title: "T", source: "pixabay", sourceLabel: "Pixabay", queries: ["q"],
            items: [.init(id: "1", credits: [.init(variant: "original", name: "n", url: nil)])])
        let writer = try await OutputWriter(root: output.url, records: records)
        try await writer.begin(planned: ["index.html", "items/1.html"])
        try writer.write(Array("one".utf8), to: "index.html", inputs: "1a")
        try writer.write(Array("two".utf8), to: "items/1.html", inputs: "2b")
        try writer.finish(galleries: [gallery])
        await writer.recordState(fingerprint: "f", summary: BuildSummary(), responses: [])

        let decoded = await OutputFolderSurvey(root: output.url)
        let copied = await OutputFolderSurvey(root: output.url, records: records)
        #expect(!decoded.filesFromCopy && copied.filesFromCopy)
        #expect(copied.previousFiles == decoded.previousFiles && copied.previousFiles.count == 2)
        #expect(copied.previousGalleries.equal([gallery]) && !copied.previousGalleries.equal([]))
        let frozen = await OutputFolderSurvey(root: output.url, records: records, needsGalleries: true)
        #expect(!frozen.filesFromCopy && frozen.previousGalleries == .decoded([gallery]))

        // The manifest edited by hand, still valid and the same size: its own record of index.html is taken.
        let manifestURL = output.url.appendingPathComponent(OutputManifest.fileName)
        let edited = String(decoding: try Data(contentsOf: manifestURL), as: UTF8.self)
            .replacingOccurrences(of: "\"1a\"", with: "\"9a\"")
        try Data(edited.utf8).write(to: manifestURL)
        let afterEdit = await OutputFolderSurvey(root: output.url, records: records)
        #expect(!afterEdit.filesFromCopy)
        #expect(afterEdit.previousFiles["index.html"]?.inputs == "9a")
    }

    /// A rebuild that read the files from the copy keeps the manifest as it was when nothing changed, galleries
    /// included, and rewrites it (and the copy) when only the galleries did.
    @Test func aRebuildComparesTheGalleriesByTheirDigest() async throws {
        let output = try TemporaryFolder()
        let cache = try TemporaryFolder()
        let copyPath = cache.url.appendingPathComponent("files").path
        let records = OutputRecordPaths(
            state: cache.url.appendingPathComponent("state").path,
            verified: cache.url.appendingPathComponent("verified").path, temporaryFolder: cache.url,
            manifestCopy: copyPath)
        func build(_ galleries: [OutputManifest.Gallery]) async throws {
            let writer = try await OutputWriter(root: output.url, records: records)
            try await writer.begin(planned: ["index.html"])
            try writer.write(Array("one".utf8), to: "index.html", inputs: "1a")
            try writer.finish(galleries: galleries)
            await writer.recordState(fingerprint: "f", summary: BuildSummary(), responses: [])
        }
        let gallery = OutputManifest.Gallery(
            path: "", title: "T", source: "pixabay", sourceLabel: "Pixabay", queries: ["q"],
            items: [.init(id: "1", credits: [])])
        try await build([gallery])
        let manifest = output.url.appendingPathComponent(OutputManifest.fileName).path
        let first = try #require(FileStamp.of(manifest))
        let copy = try #require(FileStamp.of(copyPath))

        try await build([gallery])
        #expect(FileStamp.of(manifest) == first && FileStamp.of(copyPath) == copy)

        var renamed = gallery
        renamed.title = "U"
        try await build([renamed])
        #expect(FileStamp.of(manifest) != first)
        #expect(OutputManifest.read(in: output.url)?.galleries == [renamed])
        let rewritten = try #require(ManifestCopy.read(atPath: copyPath))
        #expect(rewritten.manifestSHA256 == SHA256Hasher.hex(of: try Data(contentsOf: URL(fileURLWithPath: manifest))))
        #expect(rewritten.galleriesDigest == OutputManifest.galleriesDigest([renamed]))
    }
}
