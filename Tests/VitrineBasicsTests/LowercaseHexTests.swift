import Testing
import VitrineBasics

struct LowercaseHexTests {
    private let digest = "d414b085826eb06778483ba35564dc849e643359f69ed9747878ba6e54985bed"

    @Test func aDigestIsSixtyFourLowercaseDigitsInEveryForm() {
        #expect(LowercaseHex.isSHA256(digest))
        #expect(LowercaseHex.isSHA256(ArraySlice(digest.utf8)))
        #expect(LowercaseHex.isDigits(digest.dropFirst(60)))
        #expect(!LowercaseHex.isSHA256(String(digest.dropLast())))
        #expect(!LowercaseHex.isSHA256(digest + "0"))
        #expect(!LowercaseHex.isSHA256(digest.uppercased()))
        #expect(!LowercaseHex.isSHA256(ArraySlice((String(digest.dropLast()) + "g").utf8)))
    }

    @Test func onlyDigitsAndLowercaseAToFAreDigits() {
        let accepted = Set("0123456789abcdef".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(LowercaseHex.isDigits([byte][...]) == accepted.contains(byte))
            #expect((LowercaseHex.value(byte) != nil) == accepted.contains(byte))
        }
        #expect(LowercaseHex.isDigits(""))
        #expect(LowercaseHex.value(UInt8(ascii: "f")) == 15)
    }

    @Test func hexStringWritesEachByteAsTwoDigits() {
        #expect([0x00, 0x0f, 0xa5, 0xff].hexString == "000fa5ff")
        #expect([UInt8]().hexString == "")
    }
}
