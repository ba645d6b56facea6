import Foundation

/// Sizes of files by `stat(2)`. FileManager's attributes also look up the names of the file's owner and group, a
/// user-database lookup per call, which dominated runs that check thousands of cached images and pages.
package enum FileSize {
    /// The size of the regular file at `path`, or nil when there is none.
    static func of(_ path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    /// A limit in the unit it was most likely given in (`40M`, `100K`, `100000`): whole mebibytes
    /// or kibibytes, else bytes, so that no limit reads as "0 MiB".
    package static func describe(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}
