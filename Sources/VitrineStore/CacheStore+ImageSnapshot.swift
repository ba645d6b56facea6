import Foundation
import VitrineBasics

/// How the cache takes the snapshot of its image index that a later build of the same output folder starts from.
extension CacheStore {
    /// A snapshot of `records` (by image URL), of the stamps their bytes were verified with (`stamps`, by SHA-256)
    /// and of the folders they are in as the cache holds them `now`, for ``imageRecords(for:snapshot:)`` of a later
    /// build; entries in a folder that is missing or changed too recently to be told apart from a later change are
    /// left out, and so are images whose bytes no longer have their verified stamp (the folders are stamped first,
    /// so a removal after that changes a stamp instead).
    package func snapshot(of records: [String: ImageRecord], stamps: [String: FileStamp], now: Date = Date())
        -> ImageIndexSnapshot
    {
        let settled = Int64((now.timeIntervalSince1970 - ImageIndexSnapshot.racyMargin) * 1_000_000_000)
        var folders: [String: FileStamp?] = [:]
        func stamp(_ folder: String) -> FileStamp? {
            if let known = folders[folder] { return known }
            let stamp = FileStamp.ofFolder("\(root.path)/\(folder)").flatMap { $0.modified < settled ? $0 : nil }
            folders[folder] = stamp
            return stamp
        }
        var candidates: [(digest: String, record: ImageRecord)] = []
        for (url, record) in records {
            let digest = SHA256Hasher.hex(of: url)
            guard stamp(Self.urlFolder(digest)) != nil, stamp(Self.imageFolder(record)) != nil else { continue }
            candidates.append((digest, record))
        }
        let files = RootedFiles(root: root.path)
        var kept: [String: ImageRecord] = [:]
        var imageStamps: [String: FileStamp] = [:]
        for (digest, record) in candidates.sorted(by: { $0.record.sha256 < $1.record.sha256 }) {
            guard let verified = stamps[record.sha256],
                imageStamps[record.sha256] == verified || files.stamp(Self.imagePath(of: record)) == verified
            else { continue }
            kept[digest] = record
            imageStamps[record.sha256] = verified
        }
        return ImageIndexSnapshot(folders: folders.compactMapValues { $0 }, records: kept, imageStamps: imageStamps)
    }
}
