import Foundation
import Testing
import VitrineTestSupport

/// The library's public interface (docs/architecture.md, "The library's public interface") is enough for a program
/// outside the package to do what `vitrine` does, and nothing else is reachable from there: a program is type-checked
/// against the built modules under a package name of its own, which sees `public` declarations only.
@Suite struct PublicInterfaceTests {
    /// The folder the tests were built into, which holds the library's modules.
    static var buildFolder: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// Type-checks `file` as a program of another package would be; returns the compiler's status and messages.
    static func typeCheck(_ file: URL) async throws -> (status: Int32, messages: String) {
        let root = VitrineProcess.packageRoot
        let scratch = buildFolder.deletingLastPathComponent().deletingLastPathComponent()
        var arguments = [
            "swiftc", "-typecheck", "-package-name", "EmbeddingProgram", "-I",
            buildFolder.appendingPathComponent("Modules").path,
        ]
        let moduleMaps = [
            root.appendingPathComponent("Sources/CCrypto"), root.appendingPathComponent("Sources/CCurl"),
            root.appendingPathComponent("Sources/CXSLT"), root.appendingPathComponent("Sources/CVips"),
            root.appendingPathComponent("Sources/CLinux"),
            scratch.appendingPathComponent("checkouts/swift-system/Sources/CSystem/include"),
        ]
        for folder in moduleMaps {
            arguments += ["-Xcc", "-fmodule-map-file=\(folder.appendingPathComponent("module.modulemap").path)"]
        }
        arguments += ["-Xcc", "-I/usr/include/libxml2", file.path]
        let output = try await ChildProcess.output(
            of: URL(fileURLWithPath: "/usr/bin/env"), arguments: arguments, mergingErrors: true)
        return (output.exit.termination.status, output.text)
    }

    @Test func aProgramOutsideThePackageCanDoWhatTheCommandLineDoes() async throws {
        let embedder = VitrineProcess.packageRoot.appendingPathComponent("Tests/Fixtures/Embedder/Embedder.swift")
        let checked = try await Self.typeCheck(embedder)
        #expect(checked.status == 0, "\(checked.messages)")
    }

    @Test func whatOnlyThePackageSharesIsOutOfItsReach() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("embedder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let program = folder.appendingPathComponent("Reach.swift")
        try Data(
            """
            import Foundation
            import VitrinePublish
            import VitrineModel

            func reach() async throws {
                let writer = try await OutputWriter(root: URL(fileURLWithPath: "out"))
                _ = try writer.write([1], to: "../escape")
                _ = SiteHistory.empty
            }
            """.utf8
        ).write(to: program)
        let checked = try await Self.typeCheck(program)
        #expect(checked.status != 0)
        #expect(checked.messages.contains("OutputWriter"), "\(checked.messages)")
        #expect(checked.messages.contains("SiteHistory"), "\(checked.messages)")
    }
}
