import Testing
import VitrineBasics

@Suite struct LeftToExitTests {
    final class Table: Sendable {}

    @Test func aKeptValueOutlivesItsLastReference() {
        weak var weakTable: Table?
        do {
            let table = Table()
            weakTable = table
            LeftToExit.keep([table], label: "a table")
        }
        #expect(weakTable != nil)
        #expect(LeftToExit.count(labelled: "a table") == 1)
    }
}
