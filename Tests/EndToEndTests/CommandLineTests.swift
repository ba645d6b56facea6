import Foundation
import SampleAPI
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrineBasics
@testable import VitrineHTTP
@testable import VitrineRender

@Suite struct CommandLineTests {
    @Test func demoBuildsFromTheBundledSampleAPI() async throws {
        let workspace = try Workspace()
        let outcome = try await VitrineProcess.run(
            ["demo", "--port", "0", "--out", "Output", "--cache", "cache"], in: workspace.url)
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains("20 items"))
        let site = SiteInspector(root: workspace.url.appendingPathComponent("Output"))
        #expect(try site.crawl().broken == [])
        #expect(try site.page("index.html").strings("//main//img").count == 10)
    }

    @Test func badFlagsAreUsageErrors() async throws {
        #expect(try await VitrineProcess.run(["pixabay", "x", "--per-page", "0"]).status == 64)
        #expect(try await VitrineProcess.run(["pixabay", "x", "--jobs", "1000"]).status == 64)
        #expect(try await VitrineProcess.run(["pixabay"]).status == 64)
        #expect(try await VitrineProcess.run(["nonsense"]).status == 64)
    }

    /// The help says what the README's Rights section says: a picture whose license does not allow copies is shown
    /// from the API's own URL, so "never hotlinked" would be untrue.
    @Test func helpSaysWhichImagesAreDownloadedAndWhichAreShownFromTheirSource() async throws {
        let help = try await VitrineProcess.run(["--help"])
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.status == 0 && !text.contains("never hotlinked"), "\(help.stdout)")
        #expect(text.contains("downloaded where their license allows copies"), "\(help.stdout)")
    }

    @Test func helpListsTheExitCodes() async throws {
        let help = try await VitrineProcess.run(["--help"])
        #expect(help.status == 0)
        let listed = help.stdout.split(separator: "\n").compactMap { line -> Int32? in
            let fields = line.split(separator: " ", maxSplits: 1)
            return line.hasPrefix("  ") && fields.count == 2 ? Int32(fields[0]) : nil
        }
        #expect(Set(listed) == Set(ExitStatus.allCases.map(\.rawValue)))
        let table = help.stdout.components(separatedBy: "Exit status:\n")[1].components(separatedBy: "\n\n")[0]
        #expect(
            table.split(separator: "\n").count == ExitStatus.allCases.count, "a meaning wrapped onto a line of its own")
        let readme = try String(
            contentsOf: VitrineProcess.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let documented = readme.split(separator: "\n").compactMap { line -> Int32? in
            guard line.hasPrefix("| ") else { return nil }
            return Int32(line.dropFirst(2).prefix { $0 != " " })
        }
        #expect(Set(documented) == Set(ExitStatus.allCases.map(\.rawValue)))
    }

    @Test(arguments: ["pixabay", "flickr", "thumbnails", "albums", "random", "build", "demo"])
    func theSharedOptionsAreInTitledSectionsOfTheHelp(command: String) async throws {
        let help = try await VitrineProcess.run([command, "--help"])
        #expect(help.status == 0)
        var sections: [String: Set<String>] = [:]
        var section = ""
        for line in help.stdout.split(separator: "\n") {
            if line.hasSuffix(":"), line.allSatisfy({ $0.isUppercase || $0 == " " || $0 == ":" }) {
                section = String(line.dropLast())
            } else if line.hasPrefix("  -") {
                let label = line.dropFirst(2).components(separatedBy: "  ")[0]
                let names = label.split(separator: " ").map { $0.trimmingCharacters(in: [","]) }
                sections[section, default: []].formUnion(names.filter { $0.hasPrefix("--") })
            }
        }
        #expect(
            sections["OUTPUT OPTIONS"] == [
                "--out", "--templates", "--force", "--no-wait", "--history", "--history-from", "--new-history",
                "--formats",
            ])
        #expect(sections["CACHE OPTIONS"] == ["--cache", "--offline", "--refresh", "--cache-max-size"])
        #expect(
            sections["NETWORK OPTIONS"] == [
                "--jobs", "--retries", "--connect-timeout", "--stall-timeout", "--transfer-timeout",
                "--max-image-size", "--max-response-size",
            ])
        #expect(sections["RUN OPTIONS"] == ["--strict", "--deadline", "--quiet", "--json", "--now"])
        #expect(sections["OPTIONS"]?.isSuperset(of: ["--help", "--version"]) == true)
    }
}
