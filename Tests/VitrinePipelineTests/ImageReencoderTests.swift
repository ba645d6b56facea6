import Foundation
import SampleAPI
import Testing
import VitrineBasics
import VitrineImaging
import VitrineTestSupport

@testable import VitrinePipeline
@testable import VitrineStore

@Suite struct ImageReencoderTests {
    static let photo = Array(SampleImages.bundled.image(theme: "graffiti", number: 2, size: 340)!.bytes)

    /// A PNG whose chunks are all there, so that it passes the download's checks, but whose checksums are wrong, so
    /// that no decoder takes it.
    static let undecodablePNG = undecodablePNG(side: 1)

    /// ``undecodablePNG`` declaring `side` × `side` pixels, `tag` making its bytes its own.
    static func undecodablePNG(side: UInt32, tag: UInt8 = 0) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let length = withUnsafeBytes(of: UInt32(data.count).bigEndian, Array.init)
            return length + Array(type.utf8) + data + [0, 0, 0, 0]
        }
        let sideBytes = withUnsafeBytes(of: side.bigEndian, Array.init)
        let header: [UInt8] = sideBytes + sideBytes + [8, 0, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("IDAT", [0x78, 0x9C, 0x63, 0x60, 0, 0, 0, 2, 0, 1]) + chunk("tEXt", [tag]) + chunk("IEND", [])
    }

    func reencoder(_ cache: CacheStore, snapshot: ImageIndexSnapshot? = nil) -> ImageReencoder {
        ImageReencoder(cache: cache, formats: [.avif, .webp], snapshot: snapshot, progress: { _ in })
    }

    @Test func makesEachCopyOnceAndFindsItInTheCacheAfter() async throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        let original = try cache.storeImage(Self.photo, format: .jpeg, from: "https://example.org/a_340.jpg")
        let first = try await reencoder(cache).copies(of: [original, original])
        #expect(first.encoded == 3 && !first.allFromSnapshot)
        #expect(first.failures.isEmpty)
        let offered = try #require(first.copies[original.sha256])
        #expect(offered.map(\.record.format) == [.avif, .avif, .webp])
        #expect(offered.map(\.minimumDensity) == [2, nil, nil])
        #expect(offered[0].record.byteCount < offered[1].record.byteCount)
        for copy in offered.map(\.record) {
            #expect(copy.byteCount < original.byteCount)
            #expect(copy.width == original.width && copy.height == original.height)
            let bytes = try FileBytes.read(atPath: cache.imageFilePath(for: copy), limit: copy.byteCount)
            #expect(ImageFormat.sniff(bytes) == copy.format)
        }
        let second = try await reencoder(cache).copies(of: [original])
        #expect(second.encoded == 0)
        #expect(second.copies == first.copies)
        // And through the snapshot a build of the same output folder keeps, without opening the index entries.
        let snapshot = cache.snapshot(
            of: second.records, stamps: second.stamps, now: Date().addingTimeInterval(ImageIndexSnapshot.racyMargin + 1)
        )
        let third = try await reencoder(cache, snapshot: snapshot).copies(of: [original])
        #expect(third.encoded == 0 && third.copies == first.copies && third.allFromSnapshot)
    }

    @Test func aCopyWhoseBytesWereDamagedInTheCacheIsMadeAgain() async throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        let original = try cache.storeImage(Self.photo, format: .jpeg, from: "https://example.org/b_340.jpg")
        let first = try await reencoder(cache).copies(of: [original])
        let avif = try #require(first.copies[original.sha256]?.first?.record)
        let path = cache.imageFilePath(for: avif)
        var bytes = try FileBytes.read(atPath: path, limit: avif.byteCount)
        bytes[bytes.count / 2] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let second = try await reencoder(cache).copies(of: [original])
        #expect(second.encoded == 1)
        #expect(second.copies == first.copies)
    }

    @Test func anImageLibvipsCannotReadIsAWarningNotAFailure() async throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        #expect(ImageCompleteness.problem(Self.undecodablePNG, format: .png) == nil)
        let broken = try cache.storeImage(Self.undecodablePNG, format: .png, from: "https://example.org/c.png")
        let good = try cache.storeImage(Self.photo, format: .jpeg, from: "https://example.org/d_340.jpg")
        let result = try await reencoder(cache).copies(of: [broken, good])
        #expect(result.failures.count == 3)
        #expect(result.copies[broken.sha256] == nil)
        #expect(result.copies[good.sha256]?.count == 3)
        let warnings = GalleryPipeline.warnings(result.failures)
        #expect(warnings.count == 2)  // one per format: its two AVIF copies are one image
        #expect(warnings.allSatisfy { $0.hasPrefix("1 image could not be re-encoded as ") && $0.hasSuffix("alone.") })
    }

    @Test func leavesGIFsAndCopiesAlone() async throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        let gif = try cache.storeImage(Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B], format: .gif, from: "g")
        let result = try await reencoder(cache).copies(of: [gif])
        #expect(result.encoded == 0 && result.failures.isEmpty && result.copies.isEmpty)
    }

    /// On a runner of many cores the copies are encoded at once only while the memory their images need fits the
    /// budget: 4096 × 4096 images one at a time, 2048 × 2048 ones a few at a time, small ones on every core.
    @Test(arguments: [(4096, 1), (2048, 3), (64, 16)])
    func theEncodersAtOnceNeedAtMostTheMemoryBudget(side: Int, atOnce: Int) async throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        let originals = try (0..<24).map { tag in
            try cache.storeImage(
                Self.undecodablePNG(side: UInt32(side), tag: UInt8(tag)), format: .png, from: "https://e.org/\(tag)")
        }
        #expect(originals.allSatisfy { $0.width == side && $0.height == side })
        var reencoder = reencoder(cache)
        reencoder.cores = 16
        let result = try await reencoder.copies(of: originals)
        #expect(result.failures.count == 24 * 3)
        #expect(result.mostAtOnce == atOnce)
        #expect(result.mostMemoryAtOnce <= ImageEncoder.memoryBudget)
    }
}
