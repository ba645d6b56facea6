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

    /// A test file over 450 lines holds more than one topic: it is split by topic, as the sources are.
    @Test func noTestFileIsOver450Lines() throws {
        let tests = VitrineProcess.packageRoot.appendingPathComponent("Tests")
        let walker = try #require(FileManager.default.enumerator(atPath: tests.path))
        var checked = 0
        for case let relative as String in walker where relative.hasSuffix(".swift") {
            let text = try String(contentsOf: tests.appendingPathComponent(relative), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
            #expect(lines <= 450, "Tests/\(relative) has \(lines) lines")
            checked += 1
        }
        #expect(checked > 80)
    }
}
