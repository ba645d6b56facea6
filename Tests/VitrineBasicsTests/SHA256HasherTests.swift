import Testing

@testable import VitrineBasics

@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func knownVectors(input: String, digest: String) {
        #expect(SHA256Hasher.hex(of: input) == digest)
    }

    @Test func multiBlockInputFedInPieces() {
        let bytes = (0..<5).flatMap { _ in (0...255).map { UInt8($0) } }
        var hasher = SHA256Hasher()
        hasher.update(bytes[0..<100])
        hasher.update(bytes[100..<1000])
        hasher.update(bytes[1000...])
        #expect(hasher.finalize().hexString == "d414b085826eb06778483ba35564dc849e643359f69ed9747878ba6e54985bed")
        #expect(SHA256Hasher.hex(of: bytes) == "d414b085826eb06778483ba35564dc849e643359f69ed9747878ba6e54985bed")
    }

    @Test func aCopyGoesOnFromWhereTheOriginalWasAndNeitherChangesTheOther() {
        var original = SHA256Hasher()
        original.update(Array("ab".utf8))
        var copy = original
        copy.update(Array("c".utf8))
        #expect(copy.finalize().hexString == SHA256Hasher.hex(of: "abc"))
        original.update(Array("x".utf8))
        #expect(original.finalize().hexString == SHA256Hasher.hex(of: "abx"))
        // After `finalize` a hasher starts again.
        original.update(Array("abc".utf8))
        #expect(original.finalize().hexString == SHA256Hasher.hex(of: "abc"))
    }

    @Test func everySplitOfTheInputGivesTheSameDigest() {
        let bytes = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let whole = SHA256Hasher.hex(of: bytes)
        for split in [1, 63, 64, 65, 127, 128, 200] {
            var hasher = SHA256Hasher()
            var start = 0
            while start < bytes.count {
                let end = min(start + split, bytes.count)
                hasher.update(bytes[start..<end].lazy.map { $0 })
                start = end
            }
            #expect(hasher.finalize().hexString == whole, "pieces of \(split) bytes")
        }
    }
}
