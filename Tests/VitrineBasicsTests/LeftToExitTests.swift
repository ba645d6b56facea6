import Testing
import VitrineBasics

@Suite struct LeftToExitTests {
    final class Table: Sendable {}

    @Test func aKeptValueOutlivesItsLastReference() {
        weak var weakTable: Table?
        let before = LeftToExit.count
        do {
            let table = Table()
            weakTable = table
            LeftToExit.keep([table])
        }
        #expect(weakTable != nil)
        #expect(LeftToExit.count == before + 1)
    }
}
