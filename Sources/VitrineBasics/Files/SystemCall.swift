import Foundation
import SystemPackage

/// The one place Vitrine makes the system calls of its file handling: each call is made again while a signal
/// interrupts it (`EINTR`), and a failure is thrown as swift-system's typed `Errno`, whose `description` is the
/// system's own text for it.
///
/// `close` is the exception to the retry: on Linux a descriptor is gone after `close` returns, even with `EINTR`,
/// so closing again could close a descriptor another thread has just been given.
package enum SystemCall {
    /// Calls `call`, a system call that fails by returning -1 and setting `errno`, until it is not interrupted;
    /// returns what it returned or throws the `errno` it failed with.
    @discardableResult
    package static func run<Result: FixedWidthInteger>(_ call: () -> Result) throws(Errno) -> Result {
        while true {
            let result = call()
            guard result == -1 else { return result }
            let code = Errno(rawValue: errno)
            guard code == .interrupted else { throw code }
        }
    }

    /// Opens the file or folder at `path` (`open(2)`); `mode` is for a file it creates.
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(Errno) -> Int32 {
        try run { Foundation.open(path, flags, mode) }
    }

    /// Removes the file at `path`; a file that is already gone is not a failure.
    package static func removeFile(_ path: String) throws(Errno) {
        do {
            try run { unlink(path) }
        } catch .noSuchFileOrDirectory {}
    }

    /// Closes `descriptor` once; there is nothing useful to do about a failure here.
    package static func close(_ descriptor: Int32) {
        _ = Foundation.close(descriptor)
    }

    /// Writes all of `buffer` to `descriptor`, going on after partial writes (swift-system's `writeAll`).
    package static func writeAll(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) throws(Errno) {
        try typed { _ = try FileDescriptor(rawValue: descriptor).writeAll(buffer) }
    }

    /// Reads from `descriptor` into `buffer` until it is full or the file ends; returns how many bytes it read.
    package static func readFully(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int
    {
        let file = FileDescriptor(rawValue: descriptor)
        var count = 0
        while count < buffer.count {
            let read = try typed { try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...])) }
            if read == 0 { break }
            count += read
        }
        return count
    }

    /// Runs swift-system calls, which retry on `EINTR` themselves and throw only `Errno`, though their signatures
    /// do not say so: anything else would be a new kind of failure, reported as an I/O error.
    package static func typed<Result>(_ body: () throws -> Result) throws(Errno) -> Result {
        do {
            return try body()
        } catch let error as Errno {
            throw error
        } catch {
            throw .ioError
        }
    }
}
