import Foundation
import Testing
import VitrineTestSupport

/// The launcher every test starts its children with (VitrineTestSupport's `ChildProcess`, on `posix_spawn`).
@Suite struct ChildProcessTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    static func sh(_ script: String, in directory: URL? = nil) async throws -> ChildProcess.Output {
        try await ChildProcess.output(of: shell, arguments: ["-c", script], in: directory)
    }

    @Test func anExitStatusAndTheTimeOfTheExitAreGiven() async throws {
        let started = Date()
        let child = try ChildProcess(Self.shell, arguments: ["-c", "exit 3"])
        let exit = await child.wait()
        #expect(exit.termination == .exited(3) && child.terminationStatus == 3 && !child.isRunning)
        #expect(exit.time >= started && exit.time <= Date())
        #expect(await child.wait() == exit, "a second wait gives the same answer")
        #expect(child.arguments == ["-c", "exit 3"] && child.processIdentifier > 0)
    }

    @Test func aDeathBySignalIsToldApartFromAnExit() async throws {
        let killedItself = try ChildProcess(Self.shell, arguments: ["-c", "kill -TERM $$"])
        #expect(await killedItself.wait().termination == .killed(by: SIGTERM))
        #expect(killedItself.terminationStatus == SIGTERM, "as Foundation's Process gives it")

        let sleeper = try ChildProcess(URL(fileURLWithPath: "/bin/sleep"), arguments: ["3600"])
        #expect(sleeper.isRunning)
        #expect(sleeper.send(SIGKILL))
        #expect(await sleeper.wait().termination == .killed(by: SIGKILL))
        #expect(!sleeper.send(SIGKILL), "a reaped child's identifier is never signalled")
    }

    @Test func theWorkingDirectoryAndTheEnvironmentAreTheGivenOnes() async throws {
        let folder = try TemporaryFolder()
        let place = try await Self.sh("pwd -P", in: folder.url)
        #expect(place.text == folder.url.resolvingSymlinksInPath().path + "\n")
        let inherited = try await Self.sh("pwd -P")
        #expect(inherited.text == FileManager.default.currentDirectoryPath + "\n")

        let env = URL(fileURLWithPath: "/usr/bin/env")
        #expect(try await ChildProcess.output(of: env, environment: ["ONLY": "this one"]).text == "ONLY=this one\n")
        let path = try #require(ProcessInfo.processInfo.environment["PATH"])
        #expect(try await ChildProcess.output(of: env).text.contains("PATH=\(path)\n"), "nil: this process's")
    }

    @Test func outputGoesToFilesAndInputComesFromDevNull() async throws {
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("out")
        let both = folder.url.appendingPathComponent("both")
        let script = "echo printed; echo complained >&2; readlink /proc/self/fd/0; cat"
        let split = try ChildProcess(
            Self.shell, arguments: ["-c", script], standardOutput: .file(out),
            standardError: .file(folder.url.appendingPathComponent("err")))
        #expect(await split.wait().termination == .exited(0), "cat read the end of /dev/null at once")
        #expect(try String(contentsOf: out, encoding: .utf8) == "printed\n/dev/null\n")
        #expect(try String(contentsOf: folder.url.appendingPathComponent("err"), encoding: .utf8) == "complained\n")
        let merged = try ChildProcess(
            Self.shell, arguments: ["-c", "echo one; echo two >&2; echo three"], standardOutput: .file(both),
            standardError: .file(both))
        await merged.wait()
        #expect(try String(contentsOf: both, encoding: .utf8) == "one\ntwo\nthree\n")
    }

    @Test func aFullDeviceAsOutputFailsTheWritesNotTheStart() async throws {
        let child = try ChildProcess(
            Self.shell, arguments: ["-c", "echo x || exit 9"], standardOutput: .file(URL(fileURLWithPath: "/dev/full")))
        #expect(await child.wait().termination == .exited(9))
    }

    /// A megabyte each way is more than a pipe holds: written and read by the test at the same time, or a deadlock.
    @Test func bytesGoThroughPipesBothWaysWithoutADeadlock() async throws {
        let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let cat = try await ChildProcess.output(of: URL(fileURLWithPath: "/bin/cat"), input: bytes)
        #expect(cat.exit.termination == .exited(0) && cat.bytes == bytes)
        let merged = try await ChildProcess.output(
            of: Self.shell, arguments: ["-c", "echo out; echo err >&2"], mergingErrors: true)
        #expect(merged.text == "out\nerr\n")
        let early = try await ChildProcess.output(of: Self.shell, arguments: ["-c", "exit 4"], input: bytes)
        #expect(early.exit.termination == .exited(4), "a child that reads nothing does not stop the test")
    }

    @Test func aMissingExecutableIsAnErrorNamingIt() throws {
        let missing = "/nonexistent/vitrine-\(UUID().uuidString)"
        let error = #expect(throws: ChildProcessError.self) { try ChildProcess(URL(fileURLWithPath: missing)) }
        #expect(error?.description.contains(missing) == true && error?.description.contains("No such file") == true)
        let notAFile = #expect(throws: ChildProcessError.self) {
            try ChildProcess(Self.shell, standardOutput: .file(URL(fileURLWithPath: "/nonexistent/folder/out")))
        }
        #expect(notAFile?.description.contains("/nonexistent/folder/out") == true)
    }

    /// A pipe this process opened without close-on-exec (as another test's, or a library's, may be) is not held by
    /// a child: its reader sees the end once this process closes its write end.
    @Test func aChildHoldsNoDescriptorOfThisProcessButItsStandardStreams() async throws {
        var leaked: [Int32] = [-1, -1]
        #expect(pipe(&leaked) == 0)
        defer { close(leaked[0]) }
        let pipeName = try #require(Self.link(of: leaked[1], in: getpid()))
        let child = try ChildProcess(URL(fileURLWithPath: "/bin/sleep"), arguments: ["3600"])
        let witness = try ChildProcess(
            URL(fileURLWithPath: "/bin/sleep"), arguments: ["3600"], standardOutput: .descriptor(leaked[1]))
        defer {
            child.send(SIGKILL)
            witness.send(SIGKILL)
        }
        // The loader and the C library of `sleep` may hold a file for a moment as it starts; a descriptor inherited
        // from this process would stay.
        let listing = "/proc/\(child.processIdentifier)/fd"
        var descriptors = try FileManager.default.contentsOfDirectory(atPath: listing)
        let limit = ContinuousClock.now + .seconds(10)
        while !Set(descriptors).isSubset(of: ["0", "1", "2"]) && ContinuousClock.now < limit {
            try await Task.sleep(for: .milliseconds(20))
            descriptors = try FileManager.default.contentsOfDirectory(atPath: listing)
        }
        #expect(Set(descriptors).isSubset(of: ["0", "1", "2"]), "\(descriptors)")
        #expect(Self.link(of: 1, in: witness.processIdentifier) == pipeName, "a descriptor given is the child's")
        #expect(!descriptors.contains { Self.link(of: Int32($0)!, in: child.processIdentifier) == pipeName })

        close(leaked[1])
        witness.send(SIGKILL)
        await witness.wait()
        var reader = pollfd(fd: leaked[0], events: Int16(POLLIN), revents: 0)
        #expect(poll(&reader, 1, 0) == 1 && reader.revents & Int16(POLLHUP) != 0, "no writer is left")
        #expect(child.isRunning)
    }

    @Test func aChildStartsWithDefaultSignalsAndNoneBlocked() async throws {
        let folder = try TemporaryFolder()
        let status = folder.url.appendingPathComponent("status")
        // SIGPIPE ignored in this whole process, as servers do, and SIGTERM blocked on the thread that starts the
        // child: the child has neither.
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        let child = try await withCheckedThrowingContinuation { continuation in
            Thread {
                var blocked = sigset_t()
                sigemptyset(&blocked)
                sigaddset(&blocked, SIGTERM)
                pthread_sigmask(SIG_BLOCK, &blocked, nil)
                continuation.resume(
                    with: Result {
                        try ChildProcess(
                            URL(fileURLWithPath: "/bin/cat"), arguments: ["/proc/self/status"],
                            standardOutput: .file(status))
                    })
            }.start()
        }
        #expect(await child.wait().termination == .exited(0))
        let lines = try String(contentsOf: status, encoding: .utf8).split(separator: "\n")
        func mask(_ name: String) throws -> UInt64 {
            let line = try #require(lines.first { $0.hasPrefix("\(name):") })
            return try #require(UInt64(line.dropFirst(name.count + 1).trimmingPrefix(while: \.isWhitespace), radix: 16))
        }
        #expect(try mask("SigBlk") == 0)
        // Signals 1 to 31, one bit each from the lowest. (glibc's posix_spawn leaves its own two real-time signals,
        // 32 and 33, ignored in every child; a program linked with glibc sets them up again as it starts.)
        let ignored = try mask("SigIgn")
        #expect(ignored & 0x7FFF_FFFF == 0, "\(String(ignored, radix: 16))")
    }

    /// More children are waited for at once than the cooperative pool has threads, and the pool still runs the
    /// code that lets them end: no wait holds a thread.
    @Test(.timeLimit(.minutes(10))) func waitingHoldsNoCooperativeThread() async throws {
        let gate = try ChildPipe.make()
        let count = 4 * ProcessInfo.processInfo.activeProcessorCount + 4
        let children = try (0..<count).map { _ in
            try ChildProcess(Self.shell, arguments: ["-c", "read line"], standardInput: .descriptor(gate.reading))
        }
        close(gate.reading)
        let exits = Task {
            await withTaskGroup(of: ChildProcess.Exit.self) { group in
                for child in children { group.addTask { await child.wait() } }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        // Long enough for every wait to have started on the pool; a wait that blocked its thread would now starve
        // this task, which needs one to close the gate.
        try await Task.sleep(for: .milliseconds(300))
        #expect(children.allSatisfy { $0.isRunning })
        close(gate.writing)
        let ends = await exits.value
        #expect(ends.count == count && ends.allSatisfy { $0.termination == .exited(1) })
    }

    static func link(of descriptor: Int32, in process: pid_t) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process)/fd/\(descriptor)")
    }
}
