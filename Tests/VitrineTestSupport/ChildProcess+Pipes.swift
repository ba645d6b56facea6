import Foundation

extension ChildProcess {
    /// What a child run to its end printed, and how it ended.
    package struct Output: Sendable {
        package var exit: Exit
        package var bytes: [UInt8]

        package var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// Runs `executable` to its end with `input` on its standard input (none: /dev/null) and returns what it wrote on
    /// its standard output, and on its standard error too if `mergingErrors` (otherwise that goes to /dev/null).
    /// Threads of their own feed the one pipe and drain the other while the child runs, so a child that fills a pipe
    /// cannot deadlock with the test, and no cooperative thread blocks.
    package static func output(
        of executable: URL, arguments: [String] = [], input: [UInt8]? = nil, mergingErrors: Bool = false,
        environment: [String: String]? = nil, in directory: URL? = nil
    ) async throws -> Output {
        var pipes = [try ChildPipe.make()]
        do {
            if input != nil { pipes.append(try ChildPipe.make()) }
        } catch {
            pipes[0].close()
            throw error
        }
        let (output, feed) = (pipes[0], pipes.dropFirst().first)
        let child: ChildProcess
        do {
            // The child's ends are closed here once it has its copies: the output's end is then at its end when the
            // child's copies close.
            defer {
                Glibc.close(output.writing)
                if let feed { Glibc.close(feed.reading) }
            }
            child = try ChildProcess(
                executable, arguments: arguments, environment: environment, in: directory,
                standardInput: feed.map { .descriptor($0.reading) } ?? .null,
                standardOutput: .descriptor(output.writing),
                standardError: mergingErrors ? .descriptor(output.writing) : .null)
        } catch {
            Glibc.close(output.reading)
            if let feed { Glibc.close(feed.writing) }
            throw error
        }
        if let feed, let input { ChildPipe.write(input, to: feed.writing) }
        let bytes = await ChildPipe.readToEnd(output.reading)
        return Output(exit: await child.wait(), bytes: bytes)
    }
}

/// A pipe to or from a child: its two descriptors, both close-on-exec, and the threads that serve them.
package struct ChildPipe: Sendable {
    package var reading: Int32
    package var writing: Int32

    package static func make() throws -> ChildPipe {
        typealias MakePipe = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
        var ends: [Int32] = [-1, -1]
        // pipe2, which Swift's Glibc module leaves out (_GNU_SOURCE only): both ends close-on-exec from the start.
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "pipe2") else {
            throw ChildProcessError(description: "this C library has no pipe2")
        }
        guard unsafeBitCast(symbol, to: MakePipe.self)(&ends, O_CLOEXEC) == 0 else {
            throw ChildProcessError(description: "cannot make a pipe: " + String(cString: strerror(errno)))
        }
        return ChildPipe(reading: ends[0], writing: ends[1])
    }

    package func close() {
        Glibc.close(reading)
        Glibc.close(writing)
    }

    /// Writes `bytes` to `descriptor` and closes it, on a thread of its own. A reader that has gone (a child that
    /// ended early) only ends the writing: SIGPIPE is blocked on that thread, so the write fails with EPIPE instead.
    package static func write(_ bytes: [UInt8], to descriptor: Int32) {
        Thread {
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written > 0 {
                        offset += written
                    } else if written == -1 && errno == EINTR {
                        continue
                    } else {
                        break
                    }
                }
            }
            Glibc.close(descriptor)
        }.start()
    }

    /// Everything `descriptor` gives until its end (every write end closed), read on a thread of its own; closes it.
    package static func readToEnd(_ descriptor: Int32) async -> [UInt8] {
        await withCheckedContinuation { continuation in
            Thread {
                var bytes: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                while true {
                    let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count > 0 {
                        bytes += chunk[..<count]
                    } else if count == -1 && errno == EINTR {
                        continue
                    } else {
                        break
                    }
                }
                Glibc.close(descriptor)
                continuation.resume(returning: bytes)
            }.start()
        }
    }
}
