import Foundation
import Testing

@testable import VitrineBasics

@Suite struct CoreSplitTests {
    @Test(arguments: [0, 1, 511, 512, 513, 4_099])
    func thePartsCoverEveryIndexOnceAndComeBackInOrder(count: Int) async {
        let parts = await CoreSplit.mapParts(of: count, threshold: 512) { $0 }
        #expect(parts.first?.lowerBound == 0)
        #expect(parts.last?.upperBound == count)
        #expect(zip(parts, parts.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        let cores = min(ProcessInfo.processInfo.activeProcessorCount, 4)
        #expect(parts.count == (count < 512 ? 1 : cores))
    }

    @Test func eachPartsResultIsItsOwn() async {
        let sums = await CoreSplit.mapParts(of: 10_000, threshold: 1) { $0.reduce(0, +) }
        #expect(sums.reduce(0, +) == (0..<10_000).reduce(0, +))
    }
}
