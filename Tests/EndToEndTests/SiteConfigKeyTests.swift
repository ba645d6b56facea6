import Foundation
import Testing

/// A `[[gallery]]` table of `vitrine build` takes what its gallery command takes: every argument, option and flag the
/// command has beyond the shared ones is a key of the table, under the same name, and the table takes no other key.
@Suite struct SiteConfigKeyTests {
    /// The part of ArgumentParser's `--experimental-dump-help` output these tests read.
    struct CommandHelp: Decodable {
        struct Command: Decodable { var arguments: [Argument] }

        struct Argument: Decodable {
            struct Name: Decodable {
                var kind: String
                var name: String
            }

            var kind: String
            var isOptional: Bool
            var names: [Name]?
            var preferredName: Name?
            var valueName: String?
            var defaultValue: String?
            var allValues: [String]?

            var longNames: [String] { (names ?? []).filter { $0.kind == "long" }.map(\.name) }
            /// The name a config gives it by: the argument's value name, or the preferred long name.
            var configKey: String? { kind == "positional" ? valueName : preferredName?.name }
        }

        var command: Command
    }

    /// Keys a table may not give although the command takes them, with a part of the reason the config gives.
    static let refused = ["key": "never from the file", "watch": "run vitrine build on a schedule"]

    func help(of command: String) async throws -> CommandHelp {
        let outcome = try await VitrineProcess.run([command, "--experimental-dump-help"])
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        return try JSONDecoder().decode(CommandHelp.self, from: Data(outcome.stdout.utf8))
    }

    /// The arguments of `command` that `vitrine build` does not have too, that is, its own beyond the shared flags.
    func galleryArguments(of command: String) async throws -> [CommandHelp.Argument] {
        let shared = Set(try await help(of: "build").command.arguments.flatMap(\.longNames))
        return try await help(of: command).command.arguments.filter {
            $0.kind == "positional" || Set($0.longNames).isDisjoint(with: shared)
        }
    }

    /// Builds a site from one `[[gallery]]` of `source` with `keys`, followed by a table the config refuses, so that
    /// the build stops at reading the config and says which key of which table it stopped at.
    func readConfig(source: String, _ keys: [(String, String)], in workspace: Workspace) async throws -> String {
        var text = "title = \"x\"\n\n[[gallery]]\nsource = \"\(source)\"\n"
        for (key, value) in keys { text += "\(key) = \(value)\n" }
        text += "\n[[gallery]]\nsource = \"no-such-source\"\n"
        let config = workspace.path("vitrine-\(UUID().uuidString).toml")
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let outcome = try await VitrineProcess.run(
            [
                "build", "--config", config, "--offline", "--cache", workspace.path("cache"), "--out",
                workspace.path("site"),
            ], environment: ["UNSPLASH_ACCESS_KEY": "unsplash-key"])
        #expect(outcome.status == 64, "stderr: \(outcome.stderr)")
        return outcome.stderr
    }

    /// A value the command accepts for `argument`, in TOML.
    func sampleValue(for argument: CommandHelp.Argument) -> String {
        switch argument.kind {
        case "flag": "true"
        case "positional": "\"Hamburg\""
        default:
            "\"\(argument.defaultValue ?? argument.allValues?.first ?? Self.samples[argument.configKey ?? ""] ?? "2")\""
        }
    }

    /// Values for options without a default that take no number.
    static let samples = ["declared-license": "own"]

    @Test(arguments: ["pixabay", "flickr", "thumbnails", "albums", "random"])
    func everyOptionOfAGalleryCommandIsAKeyOfItsTable(source: String) async throws {
        let workspace = try Workspace()
        let arguments = try await galleryArguments(of: source)
        #expect(!arguments.isEmpty)
        let required = arguments.filter { $0.kind == "positional" && !$0.isOptional }
        for argument in arguments {
            let key = try #require(argument.configKey, "\(argument.kind) without a name")
            let needed = required.filter { $0.configKey != key }.map { ($0.configKey!, sampleValue(for: $0)) }
            let stderr = try await readConfig(
                source: source, needed + [(key, sampleValue(for: argument))], in: workspace)
            if let reason = Self.refused[key] {
                #expect(stderr.contains("key \(key) of the 1st [[gallery]]: "), "\(key): \(stderr)")
                #expect(stderr.contains(reason), "\(key): \(stderr)")
            } else {
                #expect(stderr.contains("key source of the 2nd [[gallery]]"), "\(key) = ... is not read: \(stderr)")
            }
        }
    }

    @Test(arguments: ["pixabay", "flickr", "thumbnails", "albums", "random"])
    func aTableTakesNoKeyItsGalleryCommandLacks(source: String) async throws {
        let workspace = try Workspace()
        let stderr = try await readConfig(source: source, [("no-such-key", "1")], in: workspace)
        let list = try #require(stderr.range(of: "(known: ").map { stderr[$0.upperBound...] })
        let known = Set(list.prefix { $0 != ")" }.components(separatedBy: ", "))
        let names = Set(try await galleryArguments(of: source).flatMap { $0.longNames + [$0.configKey ?? ""] })
        #expect(known.subtracting(["source", "path", "keep"]).subtracting(names) == [])
        #expect(known.isSuperset(of: ["source", "path", "keep"]))
    }

    /// A config that cannot be read says why, in the system's words or Vitrine's, not only that it cannot.
    @Test func aConfigThatCannotBeReadSaysWhy() async throws {
        let workspace = try Workspace()
        let folder = workspace.path("vitrine.toml")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let outcome = try await VitrineProcess.run(
            [
                "build", "--config", folder, "--offline", "--cache", workspace.path("cache"), "--out",
                workspace.path("site"),
            ])
        #expect(outcome.status == 64, "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains("the file cannot be read: it is not a regular file"), "\(outcome.stderr)")
    }
}
