import Foundation
import SystemPackage

/// Writes files so that a reader, or a run killed at any moment, sees either the old bytes or the new ones.
package enum AtomicFile {
    /// Writes `bytes` to a file with no name in `url`'s folder and links it to `url` once it is whole
    /// (``UnnamedFile``), or, where no such file can be made, to a temporary file (beside `url`, or in
    /// `temporaryFolder` on the same file system) renamed over `url`: a killed process leaves the old bytes or the
    /// new ones. `durable` also flushes the bytes to disk before the name is given, so that a power cut does too;
    /// it costs a disk flush per file, so only records that other files are checked against (the output manifest)
    /// ask for it. Readers of the other files check their sizes (the cache's index, the manifest) and treat a short
    /// file as missing. Missing folders are created when the first attempt finds them missing, not checked before
    /// every file.
    package static func write<Bytes: ContiguousBytes>(
        _ bytes: Bytes, to url: URL, temporaryFolder: URL? = nil, durable: Bool = false
    ) throws(FileWriteError) {
        let directory = url.deletingLastPathComponent()
        let filled = { (descriptor: Int32) throws(FileWriteError) in
            do {
                try bytes.withUnsafeBytes { try SystemCall.writeAll(descriptor, $0) }
            } catch {
                throw FileWriteError(path: url.path, reason: "\(error)")
            }
        }
        if try UnnamedFile.write(
            in: AT_FDCWD, folderPath: directory.path, name: url.path, durable: durable, keepingExisting: false,
            path: url.path, temporaryFolder: temporaryFolder?.path, fill: filled) != nil
        {
            return
        }
        let scratch = temporaryFolder ?? directory
        let temporary = scratch.appendingPathComponent(
            TemporaryFileSweeper.temporaryName(for: url.lastPathComponent))
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC
        let openTemporary = { () throws(Errno) -> Int32 in try SystemCall.run { open(temporary.path, flags, 0o644) } }
        let descriptor: Int32
        do {
            descriptor = try openTemporary()
        } catch .noSuchFileOrDirectory {
            try createFolder(scratch)
            do {
                descriptor = try openTemporary()
            } catch {
                throw FileWriteError(path: url.path, reason: error.description)
            }
        } catch {
            throw FileWriteError(path: url.path, reason: error.description)
        }
        var failure: String?
        do {
            try bytes.withUnsafeBytes { try SystemCall.writeAll(descriptor, $0) }
            if durable { try SystemCall.run { fsync(descriptor) } }
        } catch {
            failure = "\(error)"
        }
        SystemCall.close(descriptor)
        if failure == nil {
            failure = renameCreatingFolder(temporary, to: url, folder: directory)
        }
        if let failure {
            _ = try? SystemCall.run { unlink(temporary.path) }
            throw FileWriteError(path: url.path, reason: failure)
        }
    }

    /// Renames `source` to `destination`, creating `folder` (the destination's) when it is missing; returns why it
    /// failed, or nil.
    private static func renameCreatingFolder(_ source: URL, to destination: URL, folder: URL) -> String? {
        let move = { () throws(Errno) in _ = try SystemCall.run { rename(source.path, destination.path) } }
        do {
            try move()
            return nil
        } catch .noSuchFileOrDirectory {
            do {
                try createFolder(folder)
            } catch {
                return error.reason
            }
            do {
                try move()
                return nil
            } catch {
                return error.description
            }
        } catch {
            return error.description
        }
    }

    private static func createFolder(_ folder: URL) throws(FileWriteError) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw FileWriteError(path: folder.path, reason: describe(error))
        }
    }

    private static func describe(_ error: any Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}

/// A file or folder could not be written.
public struct FileWriteError: UserFacingError {
    /// The file or folder that could not be written.
    public let path: String
    /// Why, as a clause that follows the path ("permission denied").
    public let reason: String
    /// The folder on the way that is a symbolic link or not a folder, when that is why the write was refused.
    public let linkedFolder: String?

    package init(path: String, reason: String, linkedFolder: String? = nil) {
        self.path = path
        self.reason = reason
        self.linkedFolder = linkedFolder
    }

    /// Names the path and the reason; nothing was left half-written.
    public var sentence: String { "Could not write \(path): \(reason)." }
    /// Always `.cannotWrite`.
    public var kind: FailureKind { .cannotWrite }
}
