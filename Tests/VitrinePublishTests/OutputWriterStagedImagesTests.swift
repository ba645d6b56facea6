import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineBasics
@testable import VitrinePublish

/// Images staged in the output folder while they downloaded are linked into place instead of copied from the cache,
/// with the same records as a copy; an image the folder holds already stays as it is, and the stage's file is not
/// used.
@Suite struct OutputWriterStagedImagesTests {
    func cachedImages(_ count: Int, in cache: TemporaryFolder) throws -> [ImagePlacement] {
        try (1...count).map { number in
            let bytes = "jpeg \(number)"
            try AtomicFile.write(Array(bytes.utf8), to: cache.url.appendingPathComponent("images/\(number).jpg"))
            return ImagePlacement(
                source: cache.url.appendingPathComponent("images/\(number).jpg").path,
                sha256: SHA256Hasher.hex(of: bytes), byteCount: bytes.utf8.count, cachedStamp: nil,
                urls: ["https://cdn.example/\(number).jpg"], path: "images/\(number).jpg")
        }
    }

    func inode(ofDescriptor descriptor: Int32) -> ino_t {
        var status = stat()
        fstat(descriptor, &status)
        return status.st_ino
    }

    func inode(of url: URL) -> ino_t? {
        var status = stat()
        return lstat(url.path, &status) == 0 ? status.st_ino : nil
    }

    @Test func stagedImagesAreLinkedIntoPlaceAndTheRestCopied() async throws {
        let (cache, output) = (try TemporaryFolder(), try TemporaryFolder())
        let placements = try cachedImages(20, in: cache)
        let staged = StagedFiles(folder: output.url.path, capacity: 100)
        for placement in placements.prefix(10) {
            let bytes = try #require(FileManager.default.contents(atPath: placement.source))
            #expect(staged.stage([UInt8](bytes), as: placement.sha256))
        }
        let stagedInodes = Set(staged.heldDescriptors.map(inode(ofDescriptor:)))
        let writer = try await OutputWriter(root: output.url)
        try await writer.begin(planned: placements.map(\.path))
        try await writer.placeImages(placements, staged: staged) {}
        try writer.finish()
        #expect(staged.count == 0)
        let manifest = try #require(OutputManifest.read(in: output.url))
        var linked = 0
        for placement in placements {
            let url = output.url.appendingPathComponent(placement.path)
            let bytes = try #require(FileManager.default.contents(atPath: url.path))
            #expect(SHA256Hasher.hex(of: [UInt8](bytes)) == placement.sha256)
            #expect(manifest.files.first { $0.path == placement.path }?.urls == placement.urls)
            if let inode = inode(of: url), stagedInodes.contains(inode) { linked += 1 }
            // As a copy's: the stamp the writer verified is the file's, so a rebuild trusts it without reading it.
            #expect(writer.verified[placement.path]?.stamp == FileStamp.of(url.path))
        }
        #expect(linked == 10)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: output.url.path).sorted() == [
                OutputManifest.fileName, "images",
            ])
    }

    @Test func anImageInPlaceAlreadyStaysAndItsStagedFileIsNotUsed() async throws {
        let (cache, output) = (try TemporaryFolder(), try TemporaryFolder())
        let placements = try cachedImages(3, in: cache)
        let first = try await OutputWriter(root: output.url)
        try await first.begin(planned: placements.map(\.path))
        try await first.placeImages(placements) {}
        try first.finish()
        let inodes = placements.map { inode(of: output.url.appendingPathComponent($0.path)) }

        let staged = StagedFiles(folder: output.url.path, capacity: 100)
        for placement in placements {
            let bytes = try #require(FileManager.default.contents(atPath: placement.source))
            staged.stage([UInt8](bytes), as: placement.sha256)
        }
        let again = try await OutputWriter(root: output.url)
        try await again.begin(planned: placements.map(\.path))
        try await again.placeImages(placements, staged: staged) {}
        try again.finish()
        #expect(placements.map { inode(of: output.url.appendingPathComponent($0.path)) } == inodes)
        #expect(staged.count == 3)
    }
}
