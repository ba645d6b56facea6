import Foundation
import Testing

/// docs/threat-model.md stays true: every promise names a test, and every test it names exists.
@Suite struct ThreatModelTests {
    static let document = VitrineProcess.packageRoot.appendingPathComponent("docs/threat-model.md")

    /// The rows of the document's tables, without their header and separator lines.
    static func rows() throws -> [(line: Int, text: String)] {
        let text = try String(contentsOf: document, encoding: .utf8)
        var rows: [(Int, String)] = []
        var inTable = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard line.hasPrefix("|") else {
                inTable = false
                continue
            }
            defer { inTable = true }
            if !inTable || line.hasPrefix("| ---") { continue }
            rows.append((index + 1, String(line)))
        }
        return rows
    }

    /// A named test (`Folder/File:name`) is a function of that name in that file.
    static func exists(file: String, name: String) -> Bool {
        let url = VitrineProcess.packageRoot.appendingPathComponent("Tests/\(file)")
        guard let source = try? String(contentsOf: url, encoding: .utf8) else { return false }
        let declaration = file.hasSuffix(".py") ? "def \(name)(" : "func \(name)("
        return source.contains(declaration)
    }

    @Test func everyPromiseNamesATestAndEveryNamedTestExists() throws {
        let rows = try Self.rows()
        #expect(rows.count > 40)
        let reference = try Regex(#"`([A-Za-z]+/[A-Za-z0-9_/]+\.(swift|py)):([A-Za-z_][A-Za-z0-9_]*)`"#)
        let script = try Regex(#"`scripts/([a-z-]+)`"#)
        for (line, text) in rows {
            let references = text.matches(of: reference)
            let scripts = text.matches(of: script)
            #expect(!references.isEmpty || !scripts.isEmpty, "docs/threat-model.md:\(line) names no test")
            for match in scripts {
                let name = String(try #require(match.output[1].substring))
                let path = VitrineProcess.packageRoot.path + "/scripts/" + name
                let found = FileManager.default.isExecutableFile(atPath: path)
                #expect(found, "docs/threat-model.md:\(line): no scripts/\(name)")
            }
            for match in references {
                let file = String(try #require(match.output[1].substring))
                let name = String(try #require(match.output[3].substring))
                #expect(
                    Self.exists(file: file, name: name), "docs/threat-model.md:\(line): no \(name) in Tests/\(file)")
            }
        }
    }

    @Test func everyInputSurfaceHasItsSection() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let surfaces = [
            "API answers and image bytes", "Redirects", "vitrine.toml", "The environment", "history.json",
            "Shard folders", "Templates", "The output and cache folders", "`vitrine serve`", "`vitrine init`",
        ]
        for surface in surfaces {
            #expect(text.contains("\n## \(surface)"), "docs/threat-model.md has no section on \(surface)")
        }
    }
}
