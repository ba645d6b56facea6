import Foundation
import SampleAPI
import Testing

/// `vitrine init [DIR]`: a new site's commented `vitrine.toml` and the workflow of docs/ci.md, run by the real binary.
@Suite struct InitTests {
    static let workflow = ".github/workflows/gallery.yml"

    /// The fenced blocks of a Markdown text in `language`, each without its fences.
    static func codeBlocks(_ markdown: String, language: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```\(language)" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.map { "\($0)\n" }.joined())
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// `config` with an `endpoint` on the sample API after every table's `source` line, so that it builds offline.
    static func pointed(_ config: String, at server: SampleAPIServer) async throws -> String {
        let endpoints = [
            "flickr": await server.flickrEndpoint, "random": await server.picsumEndpoint,
            "pixabay": await server.pixabayEndpoint, "thumbnails": await server.thumbnailsEndpoint,
        ]
        var lines: [String] = []
        for line in config.split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append(String(line))
            guard line.hasPrefix("source = ") else { continue }
            let source = line.dropFirst("source = ".count).split(separator: "\"").first.map(String.init) ?? ""
            let endpoint = try #require(endpoints[source], "no sample endpoint for \(source)")
            lines.append("endpoint = \"\(endpoint)\"")
        }
        return lines.joined(separator: "\n")
    }

    @Test func writesAConfigThatBuildsAndTheWorkflowOfDocsCI() async throws {
        try await withSampleAPI(SampleAPIConfiguration()) { server, workspace in
            let outcome = try await VitrineProcess.run(["init", workspace.path("my site")])
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            #expect(outcome.stderr.isEmpty)
            let site = workspace.path("my site")
            #expect(
                outcome.stdout.hasPrefix(
                    "Wrote \(site)/vitrine.toml\nWrote \(site)/\(Self.workflow)\nNext: cd '\(site)' && vitrine build "
                        + "&& vitrine serve\n"))
            #expect(try workspace.tree("my site").keys.sorted() == [Self.workflow, "vitrine.toml"])

            // One source of truth: the workflow is the one docs/ci.md shows, whose first line names its path.
            let docs = try String(
                contentsOf: VitrineProcess.packageRoot.appendingPathComponent("docs/ci.md"), encoding: .utf8)
            let shown = Self.codeBlocks(docs, language: "yaml").filter { $0.hasPrefix("# \(Self.workflow)\n") }
            #expect(shown.count == 1)
            let written = try String(contentsOfFile: "\(site)/\(Self.workflow)", encoding: .utf8)
            #expect(written == shown.first, "docs/ci.md and vitrine init's workflow differ")

            // The config as written is read without complaint: offline and with nothing cached, the build gets as
            // far as asking the cache (exit 66, not 64 for a bad config).
            let configPath = "\(site)/vitrine.toml"
            let config = try String(contentsOfFile: configPath, encoding: .utf8)
            let offline = try await VitrineProcess.run(
                ["build", "--offline", "--cache", workspace.path("empty-cache"), "--out", workspace.path("offline")],
                in: URL(fileURLWithPath: site))
            #expect(offline.status == ExitStatus.nothingCached.rawValue, "stderr: \(offline.stderr)")

            // Pointed at the sample API, it builds as it is: a Flickr feed and a random photo, no key.
            try await Self.pointed(config, at: server).write(toFile: configPath, atomically: true, encoding: .utf8)
            let built = try await VitrineProcess.run(
                ["build", "-q", "--cache", workspace.path("cache")], in: URL(fileURLWithPath: site))
            #expect(built.status == 0, "stderr: \(built.stderr)")
            let output = try workspace.tree("my site/Output")
            #expect(output.keys.contains("index.html"))
            #expect(output.keys.contains("hamburg/index.html"))
            #expect(output.keys.contains("random/index.html"))
            let home = String(decoding: try #require(output["index.html"]), as: UTF8.self)
            #expect(home.contains("My pictures"))
            // Flickr's pictures are shown from Flickr; a gallery whose pictures are copied, as the starter's
            // Pixabay table once its lines are uncommented, publishes AVIF and WebP copies, which its pages offer.
            let withPixabay = config.replacingOccurrences(
                of: "# [[gallery]]\n# source = \"pixabay\"\n# term = \"Hamburg\"\n",
                with: "[[gallery]]\nsource = \"pixabay\"\nterm = \"Hamburg\"\npath = \"pixabay\"\n")
            #expect(withPixabay != config, "the starter's Pixabay table is not where the test looks for it")
            try await Self.pointed(withPixabay, at: server).write(toFile: configPath, atomically: true, encoding: .utf8)
            let copied = try await VitrineProcess.run(
                ["build", "-q", "--cache", workspace.path("cache")], environment: ["PIXABAY_API_KEY": "sample-key"],
                in: URL(fileURLWithPath: site))
            #expect(copied.status == 0, "stderr: \(copied.stderr)")
            let images = try workspace.tree("my site/Output").keys.filter { $0.hasPrefix("images/") }
            #expect(images.contains { $0.hasSuffix(".avif") } && images.contains { $0.hasSuffix(".webp") })
            let grid = String(
                decoding: try #require(try workspace.tree("my site/Output")["pixabay/index.html"]), as: UTF8.self)
            #expect(grid.contains("type=\"image/avif\"") && grid.contains("type=\"image/webp\""))
        }
    }

    @Test func writesIntoTheCurrentFolderByDefault() async throws {
        let workspace = try Workspace()
        let outcome = try await VitrineProcess.run(["init"], in: workspace.url)
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        #expect(
            outcome.stdout.hasPrefix(
                "Wrote vitrine.toml\nWrote \(Self.workflow)\nNext: vitrine build && vitrine serve\n"))
        #expect(try workspace.tree(".").keys.sorted() == [Self.workflow, "vitrine.toml"])
    }

    @Test(arguments: ["vitrine.toml", workflow])
    func anExistingFileIsNamedAndNothingIsWritten(existing: String) async throws {
        let workspace = try Workspace()
        let file = workspace.url.appendingPathComponent("site/\(existing)")
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: file)
        let before = try workspace.tree("site")
        let outcome = try await VitrineProcess.run(["init", workspace.path("site")])
        #expect(outcome.status == ExitStatus.cannotWrite.rawValue)
        #expect(
            outcome.stderr
                == "vitrine: Refusing to overwrite \(file.path): Vitrine never replaces a file it did not write, so it "
                + "wrote nothing; move the file away or choose another folder.\n")
        #expect(outcome.stdout.isEmpty)
        #expect(try workspace.tree("site") == before)
        if existing == "vitrine.toml" {
            #expect(!FileManager.default.fileExists(atPath: workspace.path("site/.github")), "a folder was made")
        }
    }

    @Test func aLinkedFolderOnTheWayIsNeverWrittenThrough() async throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(atPath: workspace.path("site"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: workspace.path("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: workspace.path("site/.github"), withDestinationPath: workspace.path("elsewhere"))
        let outcome = try await VitrineProcess.run(["init", workspace.path("site")])
        #expect(outcome.status == ExitStatus.cannotWrite.rawValue)
        #expect(
            outcome.stderr
                == "vitrine: Refusing to write \(workspace.path("site/\(Self.workflow)")): "
                + "\(workspace.path("site/.github")) is a symbolic link or not a folder, and Vitrine never writes "
                + "through links, so it wrote nothing; remove it or choose another folder.\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.path("elsewhere")) == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.path("site")) == [".github"])
    }

    /// What zizmor checks (scripts/check-workflow runs it and the workflow schema), held without it: every action
    /// pinned to a commit with its tag beside it, no permission at the top and only what each job needs, no checkout
    /// that keeps its credentials, and a Swift that builds Vitrine (its dependencies need tools 6.2).
    @Test func theWorkflowPinsEveryActionAndAsksForNoMoreThanItNeeds() async throws {
        let workspace = try Workspace()
        #expect(try await VitrineProcess.run(["init", workspace.path("site")]).status == 0)
        let workflow = try String(contentsOfFile: workspace.path("site/\(Self.workflow)"), encoding: .utf8)
        let lines = workflow.split(separator: "\n").map { String($0) }
        let uses = lines.filter { $0.contains("uses: ") }
        #expect(uses.count == 8)
        let pinned = /uses: [A-Za-z0-9-]+\/[A-Za-z0-9-]+(\/[a-z]+)?@[0-9a-f]{40} # v[0-9]+\.[0-9]+\.[0-9]+$/
        for line in uses { #expect(line.contains(pinned), "\(line)") }
        let top = lines.prefix { $0 != "jobs:" }
        #expect(top.contains { $0.hasPrefix("permissions: {}") })
        #expect(!top.contains { $0.contains("write") })
        let jobs = workflow.components(separatedBy: "\n  deploy:\n")
        #expect(jobs.count == 2)
        #expect(!jobs[0].contains("pages: write") && !jobs[0].contains("id-token: write"))
        #expect(jobs[0].contains("    permissions:\n      contents: read\n      actions: write "))
        #expect(jobs[1].contains("pages: write") && jobs[1].contains("id-token: write"))
        let checkouts = uses.filter { $0.contains("actions/checkout@") }.count
        #expect(checkouts == 2)
        #expect(workflow.components(separatedBy: "persist-credentials: false").count - 1 == checkouts)
        #expect(workflow.contains("swift-version: \"6.2\""))
    }

    /// The cache entry the workflow keeps: restored from the newest, saved only after a good build under the run's
    /// key, and every other entry of the branch deleted after that, so one entry is kept, within the cache's size.
    @Test func theWorkflowKeepsOneCacheEntryWithinTheCachesSize() async throws {
        let workspace = try Workspace()
        #expect(try await VitrineProcess.run(["init", workspace.path("site")]).status == 0)
        let workflow = try String(contentsOfFile: workspace.path("site/\(Self.workflow)"), encoding: .utf8)
        let steps = workflow.components(separatedBy: "\n      - ")
        func step(_ named: String) -> Int? { steps.firstIndex { $0.contains(named) } }
        let restore = try #require(step("actions/cache/restore@"))
        let build = try #require(step("vitrine build"))
        let save = try #require(step("actions/cache/save@"))
        let prune = try #require(step("gh cache delete"))
        #expect(restore < build && build < save && save < prune)
        #expect(steps[build].contains("--cache-max-size 1G"))
        #expect(steps[restore].contains("key: vitrine-data-${{ github.run_id }}"))
        #expect(steps[save].contains("key: vitrine-data-${{ github.run_id }}"))
        #expect(!steps[save].contains("if:") && !steps[prune].contains("if:"), "only after a good build")
        #expect(steps[prune].contains("SAVED: vitrine-data-${{ github.run_id }}"))
        #expect(steps[prune].contains(#"select(.key != $ENV.SAVED)"#))
        #expect(steps[prune].contains(#"--ref "$GITHUB_REF""#), "another branch's entries are its own")
        #expect(
            !steps.contains { $0.contains("uses: actions/cache@") && $0.contains("vitrine-data-") },
            "the combined action would save a second entry at the job's end")
    }

    /// A folder given to `init` or `theme export` that is a link (to a folder, or dangling) or lies below one.
    @Test(arguments: [["init"], ["theme", "export"]])
    func aLinkAtTheFolderOrAboveItIsNeverWrittenThrough(command: [String]) async throws {
        let workspace = try Workspace()
        let elsewhere = workspace.path("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: workspace.path("to-folder"), withDestinationPath: elsewhere)
        try manager.createSymbolicLink(atPath: workspace.path("dangling"), withDestinationPath: "\(elsewhere)/new")
        try manager.createDirectory(atPath: workspace.path("real"), withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: workspace.path("real/middle"), withDestinationPath: elsewhere)
        for (folder, link, cwd) in [
            (workspace.path("to-folder"), workspace.path("to-folder"), nil),
            (workspace.path("dangling"), workspace.path("dangling"), nil),
            (workspace.path("real/middle/site"), workspace.path("real/middle"), nil),
            ("real/middle/site", "real/middle", workspace.url),
            ("to-folder/", "to-folder", workspace.url),
            ("./to-folder", "./to-folder", workspace.url),
        ] as [(String, String, URL?)] {
            let outcome = try await VitrineProcess.run(command + [folder], in: cwd)
            #expect(outcome.status == ExitStatus.cannotWrite.rawValue, "\(folder): \(outcome.stderr)")
            #expect(
                outcome.stderr.hasPrefix(
                    "vitrine: Refusing to write into \(folder.hasSuffix("/") ? String(folder.dropLast()) : folder): \(link) is a symbolic link"
                ),
                "\(outcome.stderr)")
            #expect(outcome.stderr.split(separator: "\n").count == 1)
            #expect(outcome.stdout.isEmpty)
            #expect(try manager.contentsOfDirectory(atPath: elsewhere) == [], "\(folder)")
        }
    }

    @Test func theHelpListsTheNewCommands() async throws {
        let help = try await VitrineProcess.run(["--help"])
        #expect(help.stdout.contains("init") && help.stdout.contains("theme"))
        let initHelp = try await VitrineProcess.run(["init", "--help"])
        #expect(initHelp.stdout.contains(Self.workflow))
        let exportHelp = try await VitrineProcess.run(["theme", "export", "--help"])
        #expect(exportHelp.stdout.contains("--templates"))
    }
}
