import Foundation
import SystemPackage

extension RootedFiles {
    /// The open folder of `relativePath`, made when missing, and the file's name in it.
    func folderToWrite(_ relativePath: String) throws(FileWriteError) -> (folder: Int32, name: String) {
        let (folderPath, name) = Self.split(relativePath)
        switch openFolder(folderPath, create: true) {
        case .success(let open): return (open, name)
        case .failure(.blocked(let path)): throw FileWriteError(path: relativePath, linkedFolder: path, under: root)
        case .failure(.missing):
            throw FileWriteError(path: "\(root)/\(relativePath)", reason: Errno.noSuchFileOrDirectory.description)
        case .failure(.failed(let code)):
            throw FileWriteError(path: "\(root)/\(relativePath)", reason: code.description)
        }
    }

    /// Gives the file staged under `key` (``StagedFiles``) the name `relativePath`, as ``write(_:to:durable:)``
    /// would put a new file there: linked when the name is free, renamed over what is there otherwise, never through
    /// a link. Returns its stamp, or nil when nothing is staged under `key` or the staged file cannot be linked
    /// there (another file system): nothing changed then, and the caller writes the file its own way.
    package func place(_ key: String, from staged: StagedFiles, at relativePath: String) throws(FileWriteError)
        -> FileStamp?
    {
        guard let descriptor = staged.take(key) else { return nil }
        defer { SystemCall.close(descriptor) }
        let (folder, name) = try folderToWrite(relativePath)
        // A file staged on another file system than the folder's (a mount point inside the output) cannot be
        // linked there.
        var staged = stat()
        var target = stat()
        guard fstat(descriptor, &staged) == 0, fstat(folder, &target) == 0, staged.st_dev == target.st_dev else {
            return nil
        }
        return try UnnamedFile.name(
            descriptor, in: folder, name: name, durable: false, keepingExisting: false,
            path: "\(root)/\(relativePath)")
    }
}
