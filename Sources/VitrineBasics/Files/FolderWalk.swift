import Foundation

/// Finds hidden files in a folder tree with `readdir`, looking only at names and, for directories, at the entry's
/// type: no `stat` per file and no `String` for the thousands of ordinary names an output folder holds.
enum FolderWalk {
    /// The paths, relative to `root`, of every hidden entry (name starting with a dot) below `root` that is not a
    /// folder and whose name `wanted` accepts; symbolic links to folders are not followed.
    static func hiddenFiles(under root: String, where wanted: (String) -> Bool) -> [String] {
        var found: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let folder = relative.isEmpty ? root : "\(root)/\(relative)"
            guard let stream = opendir(folder) else { continue }
            defer { closedir(stream) }
            while let entry = readdir(stream) {
                let hidden = withUnsafeBytes(of: entry.pointee.d_name) { $0.first == UInt8(ascii: ".") }
                let type = entry.pointee.d_type
                if !hidden && type != UInt8(DT_DIR) && type != UInt8(DT_UNKNOWN) { continue }
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                let path = relative.isEmpty ? name : "\(relative)/\(name)"
                let isFolder = type == UInt8(DT_DIR) || (type == UInt8(DT_UNKNOWN) && isDirectory("\(root)/\(path)"))
                if isFolder {
                    pending.append(path)
                } else if hidden && wanted(name) {
                    found.append(path)
                }
            }
        }
        return found
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}
