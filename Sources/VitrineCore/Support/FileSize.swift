import Foundation

/// Sizes of files by `stat(2)`. FileManager's attributes also look up the names of the file's owner and group, a
/// user-database lookup per call, which dominated runs that check thousands of cached images and pages.
enum FileSize {
    /// The size of the regular file at `path`, or nil when there is none.
    static func of(_ path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(status.st_size)
    }
}
