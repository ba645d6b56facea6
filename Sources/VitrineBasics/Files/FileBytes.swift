import Foundation
import SystemPackage

/// Reads files whole, the one way product code reads a file by its path or from an open descriptor: a failure says
/// why, with the `Errno` of the call that failed, taken at that call.
package enum FileBytes {
    /// The most Vitrine reads of one of its own records (manifest, build state, indexes): far above a real one.
    package static let recordLimit = 1 << 30

    /// At most `limit` bytes from an open file; nil when it is unreadable or holds more.
    package static func read(_ descriptor: Int32, limit: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        guard
            let count = try? bytes.withUnsafeMutableBytes({ buffer throws(Errno) in
                try SystemCall.readFully(descriptor, into: buffer)
            }), count <= limit
        else { return nil }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// The bytes of the regular file at `path` if it holds at most `limit`; `followingLinks` false refuses a
    /// symbolic link there as not a regular file. A FIFO or device is refused, unless `acceptingPipes`: then a pipe
    /// (`--config <(…)`) is read to its end.
    package static func read(
        atPath path: String, limit: Int, followingLinks: Bool = true, acceptingPipes: Bool = false
    ) throws(FileReadError) -> [UInt8] {
        // Without O_NONBLOCK, opening a FIFO would wait for a writer, and no signal would end the wait.
        var options: FileDescriptor.OpenOptions = [.closeOnExec, .nonBlocking]
        if !followingLinks { options.insert(.noFollow) }
        let file: FileDescriptor
        do {
            file = try SystemCall.typed { try FileDescriptor.open(FilePath(path), .readOnly, options: options) }
        } catch .noSuchFileOrDirectory {
            throw .missing
        } catch .tooManySymbolicLinkLevels where !followingLinks {
            throw .notRegularFile
        } catch {
            throw .system(error)
        }
        defer { SystemCall.close(file.rawValue) }
        let status = try status(of: file.rawValue)
        if acceptingPipes && (status.st_mode & S_IFMT) == S_IFIFO {
            // Reads wait for the writer from here on; a FIFO nobody writes to reads as empty.
            do {
                let flags = try SystemCall.run { fcntl(file.rawValue, F_GETFL) }
                try SystemCall.run { fcntl(file.rawValue, F_SETFL, flags & ~O_NONBLOCK) }
            } catch {
                throw .system(error)
            }
            return try readToEnd(file, limit: limit)
        }
        return try readWhole(file.rawValue, status: status, limit: limit).bytes
    }

    /// The whole of the open regular file `descriptor` if it holds at most `limit` bytes, with its stamp as it was
    /// read: exactly the size `fstat` gave, anything else being a file that changes as it is read.
    package static func readWhole(_ descriptor: Int32, limit: Int) throws(FileReadError) -> (
        bytes: [UInt8], stamp: FileStamp
    ) {
        try readWhole(descriptor, status: status(of: descriptor), limit: limit)
    }

    private static func readWhole(_ descriptor: Int32, status: stat, limit: Int) throws(FileReadError) -> (
        bytes: [UInt8], stamp: FileStamp
    ) {
        guard let stamp = FileStamp(status) else { throw .notRegularFile }
        guard stamp.size <= Int64(limit) else { throw .tooLarge(limit: limit) }
        let size = Int(stamp.size)
        var bytes = [UInt8](repeating: 0, count: size + 1)
        let count: Int
        do {
            count = try bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in try SystemCall.readFully(descriptor, into: buffer) }
            }.get()
        } catch {
            throw .system(error)
        }
        guard count == size else { throw .changedWhileRead }
        bytes.removeLast()
        return (bytes, stamp)
    }

    /// What `fstat` says of an open file.
    private static func status(of descriptor: Int32) throws(FileReadError) -> stat {
        var status = stat()
        do {
            try SystemCall.run { fstat(descriptor, &status) }
        } catch {
            throw .system(error)
        }
        return status
    }

    /// Everything a pipe gives until its writer closes it, if that is at most `limit` bytes.
    private static func readToEnd(_ file: FileDescriptor, limit: Int) throws(FileReadError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { buffer in
                    Result { () throws(Errno) in try SystemCall.typed { try file.read(into: buffer) } }
                }.get()
            } catch {
                throw .system(error)
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            guard bytes.count <= limit else { throw .tooLarge(limit: limit) }
        }
    }
}

/// Why a file could not be read whole.
package enum FileReadError: Error, Equatable, CustomStringConvertible {
    case missing
    /// A folder, a special file, or a symbolic link where none is followed.
    case notRegularFile
    /// A folder on the way below a ``RootedFiles`` root is a symbolic link or not a folder, named by its path there.
    case blocked(String)
    case tooLarge(limit: Int)
    case changedWhileRead
    /// A system call failed, with the `errno` it set.
    case system(Errno)

    package var description: String {
        switch self {
        case .missing: "there is no such file"
        case .notRegularFile: "it is not a regular file"
        case .blocked(let path): "\(path) is a symbolic link or not a folder"
        case .tooLarge(let limit): "it holds more than \(FileSize.describe(limit)), the most Vitrine reads of it"
        case .changedWhileRead: "it changed while it was read"
        case .system(let code): code.description
        }
    }
}
