import Foundation
import Synchronization
import Testing
import VitrineTestSupport

@testable import VitrineModel
@testable import VitrineRender

@Suite struct PageRendererTests {
    /// Pages rendered through one pool from four threads at once, many times over: each has the bytes it has when
    /// rendered alone. (With one compiled stylesheet shared by the four, a few renders in a thousand came out
    /// with an image's URL missing.)
    @Test func pagesRenderedAtOnceThroughAPoolHaveTheirOwnBytes() throws {
        let views = sampleGallery().pages(salt: "")
        let renderer = try PageRenderer(theme: .builtIn)
        try renderer.prepare(for: views.map(\.job))
        let alone = try views.map { try renderer.render($0.job, model: ModelDocument.make($0)).bytes }
        let pool = PageRendererPool(startingWith: try PageRenderer(theme: .builtIn))
        let wrong = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { lane in
            for round in 0..<100 {
                let index = (lane + round) % views.count
                do {
                    let page = try pool.render(views[index].job) { ModelDocument.make(views[index]) }
                    if page.bytes != alone[index] { wrong.withLock { $0.append(views[index].job.href) } }
                } catch {
                    wrong.withLock { $0.append("\(views[index].job.href): \(error)") }
                }
            }
        }
        #expect(wrong.withLock { $0 }.isEmpty, "\(wrong.withLock { $0.prefix(3) })")
    }

    @Test func aPoolRendersWithTheLimitsItWasGiven() throws {
        var files = Theme.builtIn.files
        files["grid.xsl"] = Array(HostileTemplates.doublingString.utf8)
        let limits = TemplateLimits(memoryBytes: 16 << 20, seconds: 60)
        let pool = PageRendererPool(
            startingWith: try PageRenderer(theme: Theme(files: files, origin: "a greedy theme"), limits: limits))
        // Two renders at once: the second is made with a renderer the pool compiles, with the same limits.
        let sentences = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            do {
                _ = try pool.render(.init(kind: .grid, id: "c1-p1", href: "index.html")) {
                    ModelDocument.make(sampleGallery())
                }
                sentences.withLock { $0.append("rendered") }
            } catch let error as TemplateError {
                sentences.withLock { $0.append(error.sentence) }
            } catch {
                sentences.withLock { $0.append("\(error)") }
            }
        }
        #expect(
            sentences.withLock { $0 }.allSatisfy { $0.contains("rendering index.html needed more than 16 MB") },
            "\(sentences.withLock { $0 })")
    }
}
