internal import CCrypto

/// SHA-256 (FIPS 180-4), used to name cache entries, to address images by content and to digest pages' inputs:
/// OpenSSL's, through its EVP interface, which runs on the processor's SHA instructions where it has them. A value:
/// a copy goes on from where the original was.
package struct SHA256Hasher {
    private var context = DigestContext()

    package init() {}

    package mutating func update<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            update(UnsafeRawBufferPointer(buffer))
        }
        if handled == nil {
            Array(bytes).withUnsafeBytes { update($0) }
        }
    }

    mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        if !isKnownUniquelyReferenced(&context) { context = context.copy() }
        context.update(base, count: buffer.count)
    }

    /// The digest of everything given so far; the hasher starts again afterwards.
    package mutating func finalize() -> [UInt8] {
        if !isKnownUniquelyReferenced(&context) { context = context.copy() }
        return context.finalize()
    }

    /// The lowercase hexadecimal digest of `bytes`.
    package static func hex<Bytes: Collection>(of bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finalize().hexString
    }

    package static func hex(of text: String) -> String {
        var text = text
        return text.withUTF8 { hex(of: $0) }
    }
}

/// SHA-256 from OpenSSL's default provider, fetched once per process: an implicit fetch at every
/// `EVP_DigestInit_ex` would take the provider store's lock for each of the thousands of small digests a build makes.
/// The algorithm object is immutable and safe to share between threads.
nonisolated(unsafe) private let sha256Algorithm = EVP_MD_fetch(nil, "SHA256", nil)

/// Owns one OpenSSL digest context set up for SHA-256. OpenSSL fails here only when it cannot allocate memory or
/// its default provider is missing, which leaves nothing to go on with: that stops the process.
private final class DigestContext {
    let raw: OpaquePointer

    init() {
        guard let raw = EVP_MD_CTX_new() else { fatalError("OpenSSL could not allocate a digest context") }
        self.raw = raw
        start()
    }

    private init(copying other: DigestContext) {
        guard let raw = EVP_MD_CTX_new(), EVP_MD_CTX_copy_ex(raw, other.raw) == 1 else {
            fatalError("OpenSSL could not copy a digest context")
        }
        self.raw = raw
    }

    deinit { EVP_MD_CTX_free(raw) }

    func copy() -> DigestContext { DigestContext(copying: self) }

    func update(_ bytes: UnsafeRawPointer, count: Int) {
        guard EVP_DigestUpdate(raw, bytes, count) == 1 else { fatalError("OpenSSL's SHA-256 update failed") }
    }

    func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(raw, &digest, &length) == 1 else { fatalError("OpenSSL's SHA-256 failed") }
        start()
        return Array(digest.prefix(Int(length)))
    }

    private func start() {
        guard let algorithm = sha256Algorithm, EVP_DigestInit_ex2(raw, algorithm, nil) == 1 else {
            fatalError("OpenSSL's default provider has no SHA-256")
        }
    }
}

extension [UInt8] {
    /// The bytes in lowercase hexadecimal, as digests are written.
    package var hexString: String {
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: count * 2) { characters in
            digits.withUTF8Buffer { digits in
                for (index, byte) in enumerated() {
                    characters[2 * index] = digits[Int(byte >> 4)]
                    characters[2 * index + 1] = digits[Int(byte & 0x0f)]
                }
            }
            return count * 2
        }
    }
}
