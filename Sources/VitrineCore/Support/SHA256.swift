internal import CCrypto

/// SHA-256 (FIPS 180-4), used to name cache entries, to address images by content and to digest pages' inputs:
/// OpenSSL's, which runs on the processor's SHA instructions where it has them, 3x the Swift implementation it
/// replaced (hashing the images was a quarter of a cold build's CPU).
struct SHA256 {
    private var context = SHA256_CTX()

    init() {
        SHA256_Init(&context)
    }

    mutating func update<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            update(UnsafeRawBufferPointer(buffer))
        }
        if handled == nil {
            Array(bytes).withUnsafeBytes { update($0) }
        }
    }

    mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        SHA256_Update(&context, base, buffer.count)
    }

    /// The digest of everything given so far; the hasher starts again afterwards.
    mutating func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        SHA256_Final(&digest, &context)
        SHA256_Init(&context)
        return digest
    }

    /// The lowercase hexadecimal digest of `bytes`.
    static func hex<Bytes: Collection>(of bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize().hexString
    }

    static func hex(of text: String) -> String {
        var text = text
        return text.withUTF8 { hex(of: $0) }
    }
}

extension Sequence where Element == UInt8 {
    var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var characters: [UInt8] = []
        for byte in self {
            characters.append(digits[Int(byte >> 4)])
            characters.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: characters, as: UTF8.self)
    }
}
