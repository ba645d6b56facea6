import Foundation
import VitrineBasics

extension CacheStore {
    /// The size of the records the cache keeps of the output folder `output` (its build state, image snapshot,
    /// copy of the manifest's files, verified stamps and use record): what a build adds to the cache besides
    /// answers and images, read with one `lstat` a file.
    package func outputRecordBytes(for output: URL) -> Int64 {
        let base = root.appendingPathComponent(
            Self.buildRecordsKey(SHA256Hasher.hex(of: output.standardizedFileURL.path))
        ).path
        var total: Int64 = 0
        for fileExtension in CacheInventory.buildRecordExtensions {
            var status = stat()
            if lstat("\(base).\(fileExtension)", &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
                total += Int64(status.st_size)
            }
        }
        return total
    }
}
