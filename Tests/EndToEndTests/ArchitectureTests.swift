import Foundation
import Testing

/// The layout docs/architecture.md describes: only the command line speaks of flags and exit statuses.
@Suite struct ArchitectureTests {
    static let libraryTargets = [
        "VitrineBasics", "VitrineHTTP", "VitrineStore", "VitrineSources", "VitrineModel", "VitrineRender",
        "VitrinePublish", "VitrinePipeline",
    ]

    /// Every Swift file of a library target, with its text.
    static func librarySources(_ targets: [String] = libraryTargets) throws -> [(path: String, text: String)] {
        let sources = VitrineProcess.packageRoot.appendingPathComponent("Sources")
        var files: [(String, String)] = []
        for target in targets {
            let root = sources.appendingPathComponent(target)
            let walker = try #require(FileManager.default.enumerator(atPath: root.path))
            for case let relative as String in walker where relative.hasSuffix(".swift") {
                let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
                files.append(("\(target)/\(relative)", text))
            }
        }
        return files
    }

    @Test func noLibraryStringNamesAFlagAndNoLibraryTypeIsAnExitStatus() throws {
        let files = try Self.librarySources()
        #expect(files.count > 40)
        let flag = try Regex(#""([^"\n]*[ (“])?--[a-z][a-z-]+"#)
        for (path, text) in files {
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                #expect(line.firstMatch(of: flag) == nil, "\(path):\(number + 1) names a flag: \(code)")
                #expect(!line.contains("ExitStatus"), "\(path):\(number + 1) speaks of exit statuses: \(code)")
            }
        }
    }

    @Test func theCommandLineParserIsImportedByTheCommandLineAlone() throws {
        for (path, text) in try Self.librarySources() {
            #expect(!text.contains("import ArgumentParser"), "\(path) imports ArgumentParser")
            #expect(!text.contains("import TOMLKit"), "\(path) imports TOMLKit")
        }
    }

    /// Product code reads files through the one file layer of VitrineBasics (`RootedFiles`, `FileBytes`), whose
    /// failures carry the `Errno` of the call that failed; Foundation's readers say only that there was nothing.
    @Test func productCodeReadsFilesThroughTheFileLayerAlone() throws {
        let files = try Self.librarySources(Self.libraryTargets + ["vitrine"])
        #expect(files.count > 80)
        for (path, text) in files {
            for reader in ["FileManager.default.contents(", "Data(contentsOf:", "String(contentsOf", "FileHandle("] {
                let reads = text.contains(reader)
                #expect(!reads, "\(path) reads a file with \(reader)")
            }
        }
    }

    /// A file holds one topic a reader can keep in mind: none of the product's is over 450 lines (the sample API's
    /// and the command line's included).
    @Test func noSourceFileIsOver450Lines() throws {
        let files = try Self.librarySources(Self.libraryTargets + ["vitrine", "SampleAPI"])
        #expect(files.count > 100)
        for (path, text) in files {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
            #expect(lines <= 450, "Sources/\(path) has \(lines) lines")
        }
    }

    /// The library's public interface is what a program embedding Vitrine uses (docs/architecture.md, "The
    /// library's public interface"); whatever only this package shares is `package`.
    static let publicDeclarationLimit = 315

    @Test func thePublicInterfaceIsSmallAndEveryPublicDeclarationIsDocumented() throws {
        // A line that declares something `public`: the keyword after nothing but attributes and other modifiers.
        let publicDeclaration = try Regex(
            #"^\s*(?:(?:@\w+(?:\([^)\n]*\))?|static|class|final|nonisolated|override|mutating|convenience|required|indirect|lazy)\s+)*public\b"#
        )
        var declarations: [String] = []
        var undocumented: [String] = []
        for (path, text) in try Self.librarySources().sorted(by: { $0.path < $1.path }) {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where line.firstMatch(of: publicDeclaration) != nil {
                let place = "\(path):\(index + 1)"
                declarations.append(place)
                var above = index - 1
                while above >= 0, lines[above].trimmingPrefix(while: \.isWhitespace).hasPrefix("@") { above -= 1 }
                if above < 0 || !lines[above].trimmingPrefix(while: \.isWhitespace).hasPrefix("///") {
                    undocumented.append(place)
                }
            }
        }
        #expect(declarations.count > 0)
        #expect(
            declarations.count <= Self.publicDeclarationLimit,
            """
            \(declarations.count) public declarations, over \(Self.publicDeclarationLimit); make what only this \
            package uses `package`: \(declarations.joined(separator: ", "))
            """)
        #expect(
            undocumented.isEmpty,
            "public declarations without a doc comment directly above: \(undocumented.joined(separator: ", "))")
    }

    /// The line count of every file below the package's `folder` whose name ends in `suffix`, by its path from the
    /// package's root.
    static func lineCounts(under folder: String, endingWith suffix: String) throws -> [(path: String, lines: Int)] {
        let root = VitrineProcess.packageRoot.appendingPathComponent(folder)
        let walker = try #require(FileManager.default.enumerator(atPath: root.path))
        var counts: [(path: String, lines: Int)] = []
        for case let relative as String in walker where relative.hasSuffix(suffix) {
            let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
            counts.append(
                ("\(folder)/\(relative)", text.split(separator: "\n", omittingEmptySubsequences: false).count - 1))
        }
        return counts
    }

    /// A test file over 450 lines holds more than one topic: it is split by topic, as the sources are.
    @Test func noTestFileIsOver450Lines() throws {
        let counts = try Self.lineCounts(under: "Tests", endingWith: ".swift")
        for (path, lines) in counts { #expect(lines <= 450, "\(path) has \(lines) lines") }
        #expect(counts.count > 80)
    }

    /// The bench tools and scripts follow the code's rule: no Python file of `bench/` or `scripts/` is over 450
    /// lines, and BENCHMARKS.md, a document people read, stays within 400.
    @Test func benchToolsAreSplitByPurposeAndBenchmarksStaysReadable() throws {
        let counts =
            try Self.lineCounts(under: "bench", endingWith: ".py")
            + Self.lineCounts(under: "scripts", endingWith: ".py")
        for (path, lines) in counts { #expect(lines <= 450, "\(path) has \(lines) lines") }
        #expect(counts.count > 10)
        let benchmarks = try String(
            contentsOf: VitrineProcess.packageRoot.appendingPathComponent("BENCHMARKS.md"), encoding: .utf8)
        let lines = benchmarks.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        #expect(lines <= 400, "BENCHMARKS.md has \(lines) lines")
    }

    /// Where `text` names Foundation's `Process` outside comments and string literals: the numbers of those lines.
    /// `ChildProcess`, `VitrineProcess` and `ProcessInfo` are other names.
    static func linesNamingFoundationsProcess(_ text: String) -> [Int] {
        codeLines(of: text).filter { line in
            line.code.split { !($0.isLetter || $0.isNumber || $0 == "_") }.contains("Process")
        }.map(\.number)
    }

    /// The lines of `text` outside multiline string literals, numbered from 1, each without its string literals and
    /// its `//` comment.
    static func codeLines(of text: String) -> [(number: Int, code: Substring)] {
        var lines: [(number: Int, code: Substring)] = []
        var inMultilineString = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.ranges(of: "\"\"\"").count % 2 == 1 {
                inMultilineString.toggle()
                continue
            }
            guard !inMultilineString else { continue }
            let withoutStrings = line.replacing(#/"(?:[^"\\]|\\.)*"/#, with: "")
            lines.append(
                (index + 1, withoutStrings.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false)[0]))
        }
        return lines
    }

    /// Foundation's `Process.run()` over-reads a buffer in Swift 6.3.1 (swift-corelibs-foundation#5472) and once
    /// crashed the test process: the tests start children through VitrineTestSupport's `ChildProcess` alone.
    @Test func testsStartChildrenThroughChildProcessAlone() throws {
        let tests = VitrineProcess.packageRoot.appendingPathComponent("Tests")
        let walker = try #require(FileManager.default.enumerator(atPath: tests.path))
        var checked = 0
        for case let relative as String in walker where relative.hasSuffix(".swift") {
            let text = try String(contentsOf: tests.appendingPathComponent(relative), encoding: .utf8)
            let lines = Self.linesNamingFoundationsProcess(text)
            #expect(lines.isEmpty, "Tests/\(relative):\(lines) uses Foundation's Process: use ChildProcess")
            checked += 1
        }
        #expect(checked > 80)
    }

    @Test func theProcessScanFindsEveryWayOfNamingIt() {
        let uses = [
            "let process = Process()", "try Foundation.Process.run(url, arguments: []).waitUntilExit()",
            "func start(_ child: Process) {}  // a comment", "let handle = (process as Process).processIdentifier",
        ]
        #expect(Self.linesNamingFoundationsProcess(uses.joined(separator: "\n")) == [1, 2, 3, 4])
        let quotes = String(repeating: "\"", count: 3)
        let others = [
            "let child = try ChildProcess(url)", "let outcome = try await VitrineProcess.run([\"--help\"])",
            "let name = ProcessInfo.processInfo.processName", "// Foundation's Process crashed once.",
            "#expect(message.contains(\"Process\"))", "@Test func stopsTheTransformNotTheProcess() {}",
            "let program = " + quotes, "let task = Process()", quotes,
        ]
        #expect(Self.linesNamingFoundationsProcess(others.joined(separator: "\n")).isEmpty)
    }

    /// The files of the build's path that may read the system's time of day, each for its reason; every other date
    /// a build decides with comes from the one clock `--now` sets (`WallClock`, passed down as `now`).
    static let systemClockReaders: [String: String] = [
        "VitrineBasics/Time/WallClock.swift": "the one reading of the system's clock, which the others name",
        "vitrine/RunOptions.swift": "the build's clock when --now is not given",
        "vitrine/CacheCommand.swift": "cache stats and prune run outside any build, on the system's clock",
        "VitrineHTTP/PoliteFetcher.swift":
            "request quotas count requests really sent, and a Retry-After date is the server's real time",
        "VitrinePipeline/GalleryBuild+Publish.swift":
            "the image index snapshot compares with folders' modification times, stamped in real time",
    ]

    /// Where `text` reads the system's time of day outside comments and string literals: the numbers of those lines.
    static func linesReadingTheSystemClock(_ text: String) -> [Int] {
        let readings = [
            #/\bDate\s*\(\s*\)/#, #/\bDate\s*\.\s*now\b/#, #/\bDate\s*\.\s*init\b(?!\s*\(\s*\w)/#,
            #/Date\s*=\s*\.now\b/#,
            #/timeIntervalSinceNow/#, #/CFAbsoluteTimeGetCurrent|gettimeofday|CLOCK_REALTIME|\btime\(nil\)/#,
            #/\bWallClock\s*\.\s*system\b/#,
        ]
        return codeLines(of: text).filter { line in readings.contains { line.code.contains($0) } }.map(\.number)
    }

    /// A build decides every date (an answer's age, a snapshot's time, a random page's schedule) on one clock that
    /// `--now` sets: no file of the build's path reads the system's clock but those listed, for their reasons.
    @Test func theBuildReadsTheTimeOfDayOnItsOneClock() throws {
        let files = try Self.librarySources(Self.libraryTargets + ["vitrine"])
        #expect(files.count > 80)
        var readers: Set<String> = []
        for (path, text) in files {
            let lines = Self.linesReadingTheSystemClock(text)
            guard !lines.isEmpty else { continue }
            readers.insert(path)
            #expect(
                Self.systemClockReaders[path] != nil,
                "Sources/\(path):\(lines) reads the system's clock: take the build's clock (`now`) instead")
        }
        #expect(readers == Set(Self.systemClockReaders.keys), "the list of readers names a file that reads none")
    }

    @Test func theClockScanFindsEveryWayOfReadingIt() {
        let uses = [
            "let now = Date()", "let now = Date.now", "now: @escaping @Sendable () -> Date = Date.init,",
            "let soon = Date(timeIntervalSinceNow: 5)", "let age = stored.timeIntervalSinceNow",
            "let now: Date = .now", "return WallClock.system()", "guard let start else { return WallClock.system }",
        ]
        #expect(Self.linesReadingTheSystemClock(uses.joined(separator: "\n")) == Array(1...8))
        let others = [
            "let epoch = Date(timeIntervalSince1970: 0)", "feed.updated.map(Date.init(timeIntervalSince1970:))",
            "let started = ContinuousClock.now", "// Date() would read the system's clock",
            "#expect(message.contains(\"Date()\"))", "let next = now().addingTimeInterval(60)",
        ]
        #expect(Self.linesReadingTheSystemClock(others.joined(separator: "\n")).isEmpty)
    }
}
