import Foundation
import VitrineBasics

/// The URL-index entries a build used, with the stamps of the cache folders that hold them and their images, kept in
/// the cache (`builds/<digest of the output path>.images`) so that the next build of the same output takes each entry
/// as it is while neither folder has changed, instead of opening thousands of index files (3,600 at 1,000 items).
///
/// The cache never changes a file in place: every write renames a new file into its folder and every removal unlinks
/// one, and either changes the folder's modification time. An unchanged folder stamp therefore means the folder holds
/// the files it held when the snapshot was taken. A folder changed less than `racyMargin` before that moment is left
/// out, with its entries: a change made later within the same tick of the file system's clock could leave its stamp
/// as it was. A concurrent build that replaces an entry between this build's lookup and its snapshot can leave the
/// snapshot pointing at the earlier download of the same URL, which is still in the cache, until the folder changes
/// again.
///
/// An image's bytes can be changed in place without changing their folder, so each image's verified stamp is kept
/// too and compared with a `stat` before an entry is used.
///
/// The format is lines of text: `vitrine-images 3` (2 before JPEG sizes had their EXIF orientation applied: such a
/// snapshot is not used, so that its entries are looked up, and their sizes read again, once), then `folder SIZE MTIME INODE PATH` (cache-relative),
/// `image URL-DIGEST SHA256Hasher FORMAT BYTES WIDTH HEIGHT`, with `-` for an unknown width or height, and
/// `bytes SHA256Hasher SIZE MTIME INODE`, the stamp each image's bytes were verified with.
package struct ImageIndexSnapshot: Equatable, Sendable {
    private static let header = "vitrine-images 3"
    /// Far above the clock tick of any file system Vitrine runs on (4 ms here).
    static let racyMargin: TimeInterval = 0.1

    /// The stamp of each folder the entries are in, by its path relative to the cache root.
    var folders: [String: FileStamp]
    /// By the SHA-256 of the image URL, as the URL index names its files.
    var records: [String: CacheStore.ImageRecord]
    /// The stamp each image's bytes had when they were verified, by the image's SHA-256.
    var imageStamps: [String: FileStamp]

    init(
        folders: [String: FileStamp], records: [String: CacheStore.ImageRecord], imageStamps: [String: FileStamp]
    ) {
        self.folders = folders
        self.records = records
        self.imageStamps = imageStamps
    }

    /// The snapshot as its file holds it, in a stable order so that an unchanged snapshot is not written again.
    package func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + 64 * folders.count + 160 * records.count)
        func append(_ text: String) { bytes.append(contentsOf: text.utf8) }
        append("\(Self.header)\n")
        for (path, stamp) in folders.sorted(by: { $0.key < $1.key }) {
            append("folder \(stamp.fields) \(path)\n")
        }
        for (digest, record) in records.sorted(by: { $0.key < $1.key }) {
            let width = record.width.map(String.init) ?? "-"
            let height = record.height.map(String.init) ?? "-"
            append(
                "image \(digest) \(record.sha256) \(record.format.rawValue) \(record.byteCount) \(width) \(height)\n")
        }
        for (sha256, stamp) in imageStamps.sorted(by: { $0.key < $1.key }) {
            append("bytes \(sha256) ")
            stamp.appendFields(to: &bytes)
            bytes.append(0x0A)
        }
        return bytes
    }

    /// Reads a snapshot; nil when the bytes are not one as a whole (it is then ignored, never half-used).
    package init?(bytes: [UInt8]) {
        guard bytes.last == 0x0A else { return nil }
        let lines = bytes.dropLast().split(separator: 0x0A, omittingEmptySubsequences: false)
        guard let first = lines.first, first.elementsEqual(Self.header.utf8) else { return nil }
        folders = [:]
        records = [:]
        imageStamps = [:]
        records.reserveCapacity(lines.count)
        for line in lines.dropFirst() {
            let fields = line.split(separator: 0x20, omittingEmptySubsequences: false)
            if fields.count == 7, fields[0].elementsEqual("image".utf8) {
                guard LowercaseHex.isSHA256(fields[1]), LowercaseHex.isSHA256(fields[2]),
                    let format = ImageFormat(rawValue: String(decoding: fields[3], as: UTF8.self)),
                    let byteCount = ASCIIDecimal.int64(fields[4]), let width = Self.dimension(fields[5]),
                    let height = Self.dimension(fields[6])
                else { return nil }
                records[String(decoding: fields[1], as: UTF8.self)] = CacheStore.ImageRecord(
                    sha256: String(decoding: fields[2], as: UTF8.self), format: format, byteCount: Int(byteCount),
                    width: width, height: height)
            } else if fields.count == 5, fields[0].elementsEqual("folder".utf8) {
                let path = String(decoding: fields[4], as: UTF8.self)
                guard let stamp = FileStamp(fields: fields[1...3]), Self.isFolderPath(path) else { return nil }
                folders[path] = stamp
            } else if fields.count == 5, fields[0].elementsEqual("bytes".utf8) {
                guard LowercaseHex.isSHA256(fields[1]), let stamp = FileStamp(fields: fields[2...4]) else { return nil }
                imageStamps[String(decoding: fields[1], as: UTF8.self)] = stamp
            } else {
                return nil
            }
        }
    }

    /// A width or height: a number, or `-` for none (the outer optional is nil when it is neither).
    private static func dimension(_ field: ArraySlice<UInt8>) -> Int?? {
        if field.elementsEqual("-".utf8) { return .some(nil) }
        return ASCIIDecimal.int64(field).map { .some(Int($0)) }
    }

    /// `urls/ab` or `images/ab`: the shard folders of the cache, nothing else.
    private static func isFolderPath(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && ["urls", "images"].contains(parts[0]) && parts[1].utf8.count == 2
            && LowercaseHex.isDigits(parts[1])
    }
}
