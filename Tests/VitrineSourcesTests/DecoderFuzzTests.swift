import Foundation
import Testing
import VitrineBasics
import VitrineTestSupport

@testable import VitrineSources

/// Feeds the Pixabay decoder mutated and random input: it may reject, but must never crash or hang.
@Suite struct DecoderFuzzTests {
    /// A small deterministic generator (SplitMix64), so a failure can be replayed from its seed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let seedDocument = Array(
        "{\"total\": 2, \"totalHits\": 2, \"hits\": [\(pixabayHit(id: 1)), \(pixabayHit(id: 2, tags: "a, b"))]}".utf8)

    static let tokens: [[UInt8]] = [
        "null", "true", "-1", "1e309", "\"\"", "[]", "{}", "\"javascript:x\"", "\"\\u0000\"", "\"\\ud800\"", ",", ":",
        "\"id\"", "\"hits\"", "\"webformatURL\"", "99999999999999999999", "\"file:///etc/passwd\"",
    ].map { Array($0.utf8) }

    @Test(arguments: 0..<8)
    func mutatedDocumentsNeverCrashTheDecoder(seed: UInt64) {
        var random = SplitMix(state: seed)
        for _ in 0..<400 {
            var bytes = Self.seedDocument
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let position = Int.random(in: 0..<max(1, bytes.count), using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes[min(position, bytes.count - 1)] = UInt8.random(in: 0...255, using: &random)
                case 1:
                    bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...20, using: &random)))
                case 2: bytes.insert(contentsOf: Self.tokens.randomElement(using: &random)!, at: position)
                default: bytes = Array(bytes.prefix(position))
                }
                if bytes.isEmpty { bytes = [0x7B] }
            }
            do {
                let page = try PixabaySource.decodePage(bytes, query: "fuzz", page: 1, fetchedAt: nil)
                for hit in page.hits {
                    if case .found(_, let credit, let tile, let full, _, _, _, _) = hit.entry {
                        #expect(RemoteURLPolicy.accepts(tile.url) && RemoteURLPolicy.accepts(full.url))
                        if let url = credit?.url { #expect(RemoteURLPolicy.accepts(url)) }
                        #expect((tile.width ?? 1) > 0 && (full.height ?? 1) > 0)
                    }
                }
            } catch let error as SourceError {
                #expect(error.kind == .badData)
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
    }

    @Test func deepNestingAndHugeStringsAreHandled() {
        let deep = Array((String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)).utf8)
        #expect(throws: SourceError.self) { try PixabaySource.decodePage(deep, query: "q", page: 1, fetchedAt: nil) }
        let huge = "{\"hits\": [\(pixabayHit(id: 5, tags: String(repeating: "x", count: 200_000)))]}"
        let page = try? PixabaySource.decodePage(Array(huge.utf8), query: "q", page: 1, fetchedAt: nil)
        #expect(page?.hits.count == 1)
    }
}
