import Foundation
import SampleAPI
import Testing

@testable import VitrineBasics
@testable import VitrineHTTP
@testable import VitrinePublish

/// The promises about the output folder that the hostile pass broke, checked on the built binary: a rebuild after any
/// interruption is a clean build, nothing is written or deleted through a link, the output's images are never lost
/// to a cache that lacks them, runs into one folder take turns, and damage to a cached or published image does not
/// spread.
@Suite(.serialized) struct OutputTrustTests {
    /// A sample API and a workspace, and a small Pixabay gallery built from them.
    final class Bench: StoppableFixture {
        let server = SampleAPIServer()
        let workspace: Workspace
        let endpoint: String

        init() async throws {
            workspace = try Workspace()
            try await server.start()
            endpoint = await server.pixabayEndpoint
        }

        func arguments(_ extra: [String], out: String = "out") -> [String] {
            [
                "pixabay", "Hamburg", "--per-page", "5", "--endpoint", endpoint, "--key", SampleAPIServer.demoKey,
                "--cache", workspace.path("cache"), "--out", workspace.path(out),
            ] + extra
        }

        func build(_ extra: [String] = [], out: String = "out") async throws -> VitrineProcess.Outcome {
            try await VitrineProcess.run(arguments(extra, out: out))
        }

        /// Runs the build under strace, which sends `signal` to it at the `call`th rename of one of its threads
        /// (strace counts an injection's calls per thread; the pages and the images are written on two).
        func build(_ extra: [String], killedAtRename call: Int, signal: String) async throws -> VitrineProcess.Outcome {
            let renames = "rename,renameat,renameat2"
            return try await VitrineProcess.run(
                [
                    "-f", "-o", "/dev/null", "-e", "trace=\(renames)", "-e",
                    "inject=\(renames):signal=\(signal):when=\(call)",
                ]
                    + [VitrineProcess.binary.path] + arguments(extra),
                executable: URL(fileURLWithPath: "/usr/bin/strace"))
        }

        func stop() async { await server.stop() }
    }

    /// Every file of the output folder and every manifest entry agree, and no temporary file is left.
    func expectConsistent(_ bench: Bench, out: String = "out") throws {
        let tree = try bench.workspace.tree(out)
        let manifest = try #require(OutputManifest.read(in: bench.workspace.url.appendingPathComponent(out)))
        for file in manifest.files {
            let bytes = try #require(tree[file.path], "\(file.path) is listed but missing")
            #expect(SHA256Hasher.hex(of: bytes) == file.sha256, "\(file.path) does not match the manifest")
        }
        #expect(tree.keys.filter { $0.contains(".vitrine-") && $0 != OutputManifest.fileName }.isEmpty)
        #expect(tree[OutputJournal.fileName] == nil)
    }

    @Test(arguments: [(5, "KILL"), (15, "KILL"), (25, "KILL"), (15, "TERM")])
    func aRebuildAfterAStoppedRunIsACleanBuild(call: Int, signal: String) async throws {
        let bench = try await Bench()
        try await stopping(bench) {
            #expect(try await bench.build(["--pages", "2"]).status == 0)
            let stopped = try await bench.build(["--pages", "3"], killedAtRename: call, signal: signal)
            // SIGTERM lets the run finish what it cannot leave half-done, and it may finish altogether.
            #expect(stopped.status != 0 || signal == "TERM", "the run was stopped at rename \(call)")
            let rebuilt = try await bench.build(["--pages", "2"])
            #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
            #expect(try await bench.build(["--pages", "2"], out: "clean").status == 0)
            let (built, clean) = (try bench.workspace.tree("out"), try bench.workspace.tree("clean"))
            #expect(built.keys.sorted() == clean.keys.sorted())
            for (path, bytes) in clean where built[path] != bytes { Issue.record("\(path) differs from a clean build") }
            try expectConsistent(bench)
        }
    }

    @Test func noWriteOrDeletionFollowsALinkOutOfTheOutputFolder() async throws {
        let bench = try await Bench()
        try await stopping(bench) {
            #expect(try await bench.build(["--pages", "2"]).status == 0)
            // Someone swaps items/ for a link to a folder of theirs holding files of the same names.
            let items = bench.workspace.url.appendingPathComponent("out/items")
            let theirs = bench.workspace.url.appendingPathComponent("theirs")
            try FileManager.default.moveItem(at: items, to: theirs)
            let names = try FileManager.default.contentsOfDirectory(atPath: theirs.path)
            for name in names { try Data("theirs".utf8).write(to: theirs.appendingPathComponent(name)) }
            try FileManager.default.createSymbolicLink(at: items, withDestinationURL: theirs)
            for extra in [["--pages", "1"], ["--pages", "1", "--force"], ["--pages", "2", "--force", "--refresh"]] {
                let outcome = try await bench.build(extra)
                #expect(outcome.status == 73, "\(extra): \(outcome.stderr)")
                #expect(outcome.stderr.contains("symbolic link"), "\(outcome.stderr)")
                #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: theirs.path).sorted() == names.sorted())
            for name in names {
                #expect(try String(contentsOf: theirs.appendingPathComponent(name), encoding: .utf8) == "theirs")
            }
        }
    }

    @Test func imagesTheCacheLacksAreKeptFromTheOutputAndNothingIsDestroyedUnderStrict() async throws {
        let bench = try await Bench()
        try await stopping(bench) {
            #expect(try await bench.build().status == 0)
            let before = try bench.workspace.tree("out")
            try FileManager.default.removeItem(at: bench.workspace.url.appendingPathComponent("cache/images"))
            // A page edited by hand, so that the run has work to do beyond finding the folder up to date.
            try Data("edited".utf8).write(to: bench.workspace.url.appendingPathComponent("out/index.html"))
            let offline = try await bench.build(["--offline", "--json"])
            #expect(offline.status == 0, "\(offline.stderr)")
            #expect(offline.stderr.contains("kept the copies the output folder already had"), "\(offline.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(offline.stdout.utf8)) as? [String: Any]
            let summary = try #require(report?["summary"] as? [String: Any])
            let images = before.keys.filter { $0.hasPrefix("images/") }.count
            #expect(summary["imagesFromOutput"] as? Int == images && summary["imagesFailed"] as? Int == 0)
            #expect(try bench.workspace.tree("out") == before, "the output is as it was")
            let cached = try bench.workspace.tree("cache").keys.filter { $0.hasPrefix("images/") }
            #expect(cached.count == images, "the images are back in the cache")

            // An image neither the cache nor the output has: --strict fails before anything in the output changes.
            let image = try #require(before.keys.first { $0.hasPrefix("images/") })
            try FileManager.default.removeItem(at: bench.workspace.url.appendingPathComponent("out/\(image)"))
            for path in try bench.workspace.tree("cache").keys where Self.stem(of: path).hasPrefix(Self.stem(of: image))
            {
                try FileManager.default.removeItem(at: bench.workspace.url.appendingPathComponent("cache/\(path)"))
            }
            let unchanged = try bench.workspace.tree("out")
            let strict = try await bench.build(["--offline", "--strict"])
            #expect(strict.status == 2 && strict.stderr.contains("left as it was"), "\(strict.stderr)")
            #expect(try bench.workspace.tree("out") == unchanged)
        }
    }

    @Test func runsIntoOneFolderTakeTurns() async throws {
        let bench = try await Bench()
        try await stopping(bench) {
            let runs = try (0..<4).map { _ in try VitrineProcess.launch(bench.arguments(["--pages", "2"])) }
            for run in runs {
                let outcome = try await run.wait()
                #expect(outcome.status == 0, "\(outcome.stderr)")
            }
            #expect(try await bench.build(["--pages", "2"], out: "clean").status == 0)
            #expect(try bench.workspace.tree("out") == (try bench.workspace.tree("clean")))
            try expectConsistent(bench)
            #expect(try await bench.build(["--pages", "2"]).status == 0, "the next plain run accepts the folder")

            // Another process holds the folder: --no-wait gives up at once, a plain run waits for it and says so.
            let folder = open(bench.workspace.path("out"), O_RDONLY | O_DIRECTORY)
            defer { close(folder) }
            #expect(flock(folder, LOCK_EX) == 0)
            let busy = try await bench.build(["--no-wait"])
            #expect(busy.status == 75 && busy.stderr.contains("Another Vitrine run"), "\(busy.stderr)")
            let waiting = try VitrineProcess.launch(bench.arguments(["--pages", "1"]))
            #expect(await waiting.stderr.line(containing: "Waiting for another Vitrine run") != nil)
            #expect(waiting.process.isRunning)
            flock(folder, LOCK_UN)
            let waited = try await waiting.wait()
            #expect(waited.status == 0 && waited.stderr.contains("Waiting for another Vitrine run"), "\(waited.stderr)")
        }
    }

    @Test func runsIntoOtherFoldersShareOneCacheSafely() async throws {
        let bench = try await Bench()
        try await stopping(bench) {
            let folders = ["a", "b", "c"]
            let runs = try folders.map { try VitrineProcess.launch(bench.arguments(["--pages", "2"], out: $0)) }
            for run in runs {
                let outcome = try await run.wait()
                #expect(outcome.status == 0, "\(outcome.stderr)")
            }
            for folder in folders {
                #expect(try bench.workspace.tree(folder) == (try bench.workspace.tree("a")))
                try expectConsistent(bench, out: folder)
            }
            let cache = try bench.workspace.tree("cache")
            #expect(cache.keys.filter { $0.contains(".vitrine-") }.isEmpty, "no temporary file is left in the cache")
            for (path, bytes) in cache where path.hasPrefix("images/") {
                #expect(SHA256Hasher.hex(of: bytes).hasPrefix(Self.stem(of: path)), "cache/\(path) is damaged")
            }
        }
    }

    @Test func damageToACachedOrPublishedImageDoesNotSpread() async throws {
        let bench = try await Bench()
        try await stopping(bench) {
            #expect(try await bench.build().status == 0)
            let cacheImages = try bench.workspace.tree("cache").keys.filter { $0.hasPrefix("images/") }.sorted()
            let cut = bench.workspace.url.appendingPathComponent("cache/\(cacheImages[0])")
            // Another image than the cut one (the tree's order is a dictionary's, which changes from run to run).
            let edited = try #require(
                try bench.workspace.tree("out").keys.sorted().first {
                    $0.hasPrefix("images/") && !Self.stem(of: cacheImages[0]).hasPrefix(Self.stem(of: $0))
                })
            let editedURL = bench.workspace.url.appendingPathComponent("out/\(edited)")
            let original = try Data(contentsOf: editedURL)

            // A cached image cut short in place, and a published one edited in place.
            try FileHandle(forWritingTo: cut).truncate(atOffset: 100)
            let handle = try FileHandle(forWritingTo: editedURL)
            try handle.seek(toOffset: 10)
            try handle.write(contentsOf: Data([0x00, 0x01, 0x02]))
            try handle.close()
            let stem = Self.stem(of: edited)
            let cachedCopy = bench.workspace.url.appendingPathComponent(
                "cache/" + (try #require(cacheImages.first { Self.stem(of: $0).hasPrefix(stem) })))
            #expect(try Data(contentsOf: cachedCopy) == original, "an edit of the output leaves the cache as it was")

            let rebuilt = try await bench.build()
            #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
            #expect(try Data(contentsOf: editedURL) == original, "the edited image is put right")
            // The cut image's output copy is intact, so the build may not read its cached file (and then it
            // stays as it is until a build reads it); every other image is whole in both folders.
            try expectWholeImages(bench, but: "cache/\(cacheImages[0])")
            try expectConsistent(bench)

            // Without the output's copy, the build reads the cached file: it is checked first, and downloaded again.
            let cutCopy = try #require(
                try bench.workspace.tree("out").keys.first {
                    $0.hasPrefix("images/") && Self.stem(of: cacheImages[0]).hasPrefix(Self.stem(of: $0))
                })
            try FileManager.default.removeItem(at: bench.workspace.url.appendingPathComponent("out/\(cutCopy)"))
            let restored = try await bench.build()
            #expect(restored.status == 0, "\(restored.stderr)")
            try expectWholeImages(bench, but: nil)
            try expectConsistent(bench)
        }
    }

    /// Expects every image of the output and of the cache to hold the bytes its name gives, but the one at `except`.
    func expectWholeImages(_ bench: Bench, but except: String?) throws {
        for folder in ["out", "cache"] {
            for (path, bytes) in try bench.workspace.tree(folder)
            where path.hasPrefix("images/") && "\(folder)/\(path)" != except {
                #expect(SHA256Hasher.hex(of: bytes).hasPrefix(Self.stem(of: path)), "\(folder)/\(path) is damaged")
            }
        }
    }

    /// An image file's name without its folder and extension: its digest, or the start of it.
    static func stem(of path: String) -> String {
        ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    @Test func aDamagedManifestIsNamedAsSuch() async throws {
        let bench = try await Bench()
        try await stopping(bench) {
            #expect(try await bench.build().status == 0)
            let manifest = bench.workspace.url.appendingPathComponent("out/\(OutputManifest.fileName)")
            try FileHandle(forWritingTo: manifest).truncate(atOffset: 200)
            let outcome = try await bench.build()
            #expect(outcome.status == 73)
            #expect(outcome.stderr.contains("is damaged") && outcome.stderr.contains("--force"), "\(outcome.stderr)")
            #expect(try await bench.build(["--force"]).status == 0)
            try expectConsistent(bench)
        }
    }
}
