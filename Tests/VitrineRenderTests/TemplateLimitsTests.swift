import Testing
import VitrineModel
import VitrineTestSupport

@testable import VitrineRender

struct TemplateLimitsTests {
    /// Whatever allocation a transform's memory limit falls on, the transform is stopped with the sentence, never
    /// the process: libxslt does not check every allocation, so one refused on such a path would dereference NULL.
    /// The built-in grid page, rendered under limits from 256 bytes to 300 KB, lands the limit on hundreds of
    /// different allocations (before the headroom, the first of them ended the test process with SIGSEGV).
    @Test func aMemoryLimitFallingOnAnyAllocationStopsTheTransformNotTheProcess() throws {
        let model = sampleGallery()
        var stopped = 0
        for bytes in stride(from: 256, through: 300_000, by: 997) {
            let renderer = try PageRenderer(theme: .builtIn, limits: TemplateLimits(memoryBytes: bytes, seconds: 60))
            do {
                _ = try renderer.render(
                    .init(kind: .grid, id: "c1-p1", href: "index.html"), model: ModelDocument.make(model))
            } catch {
                #expect(error.sentence.contains("rendering index.html needed more than \(bytes) bytes of memory"))
                stopped += 1
            }
        }
        #expect(stopped > 100)
    }
}
