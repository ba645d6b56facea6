import Testing

@testable import VitrineModel

/// Two walks that give different XML must give different digest bytes, however their strings could be cut.
@Suite struct ModelDigestBytesTests {
    typealias Walk = @Sendable (inout ModelDigestBytes) -> Void

    func bytes(_ walk: Walk) -> [UInt8] {
        var digestBytes = ModelDigestBytes()
        walk(&digestBytes)
        return digestBytes.bytes
    }

    static let differentWalks: [(Walk, Walk)] = [
        ({ $0.attribute("a", "bc") }, { $0.attribute("ab", "c") }),
        ({ $0.attribute("a", "") }, { $0.text("a") }),
        (
            { $0.text("ab") },
            {
                $0.text("a"); $0.text("b")
            }
        ),
        (
            {
                $0.startElement("a"); $0.endElement(); $0.startElement("b"); $0.endElement()
            },
            {
                $0.startElement("a"); $0.startElement("b"); $0.endElement(); $0.endElement()
            }
        ),
        (
            { $0.startElement("ab") },
            {
                $0.startElement("a"); $0.text("b")
            }
        ),
        (
            { $0.text("\u{1}\u{0}\u{0}\u{0}a") },
            {
                $0.text(""); $0.startElement("a")
            }
        ),
    ]

    @Test(arguments: differentWalks.indices)
    func differentXMLGivesDifferentBytes(pair: Int) {
        let (first, second) = Self.differentWalks[pair]
        #expect(bytes(first) != bytes(second))
    }

    @Test func startingAgainKeepsNothingOfBefore() {
        var digestBytes = ModelDigestBytes()
        digestBytes.text("before")
        digestBytes.removeAll()
        digestBytes.text("after")
        #expect(digestBytes.bytes == bytes { $0.text("after") })
    }
}
