import ArgumentParser
import VitrineBasics
import VitrineModel
import VitrinePipeline
import VitrinePublish
import VitrineSources
import VitrineStore

/// Runs a build with the shared flags and reports it on stderr (and with `--json` on stdout).
enum GalleryRun {
    /// Builds one gallery at the root of the output folder.
    static func execute(
        source: any ImageSource, label: String, flags: BuildFlags, itemsPerPage: Int, secrets: [String],
        tileShape: GalleryModel.TileShape = .natural
    ) async throws {
        let plan = GalleryPlan(
            folder: "", source: source, label: label, itemsPerPage: itemsPerPage, tileShape: tileShape)
        try await execute(GallerySetup(plan: .gallery(plan), secrets: secrets), flags: flags)
    }

    /// Builds one gallery at the root of the output folder.
    static func execute(_ setup: GallerySetup, flags: BuildFlags) async throws {
        try await execute(flags: flags, secrets: setup.secrets) { pipeline, options in
            try await pipeline.run(setup.plan, options: options)
        }
    }

    /// Runs `build` with a pipeline and options made from `flags`, under signal and deadline handling.
    static func execute(
        flags: BuildFlags, secrets: [String], frozen: Bool = false,
        build: @escaping @Sendable (GalleryPipeline, BuildOptions) async throws -> BuildSummary
    ) async throws {
        let terminal = Terminal(quiet: flags.run.quiet, redactor: Redactor(secrets: secrets))
        let now = try flags.run.clock(running: false)
        try await flags.withNetwork(reporting: terminal) { fetcher in
            let pipeline = GalleryPipeline(
                fetcher: fetcher, cache: CacheStore(root: flags.cacheRoot), policy: flags.policy,
                progress: terminal.report, now: now)
            let interruption = Interruption()
            do {
                var buildOptions = try flags.options(frozen: frozen)
                // The process ends after this one build.
                buildOptions.leavesMemoryToExit = true
                let options = buildOptions
                let summary = try await interruption.run(deadline: flags.run.deadline) {
                    try await build(pipeline, options)
                }
                terminal.finish(summary, output: flags.output.out)
                if flags.run.json {
                    StandardStreams.output(Array((summary.json(status: "success") + "\n").utf8))
                }
            } catch let exit as ExitCode {
                throw exit
            } catch let incomplete as IncompleteGalleryError where interruption.reason == nil {
                if flags.run.json {
                    StandardStreams.output(Array((incomplete.summary.json(status: "partial") + "\n").utf8))
                }
                throw terminal.fail(incomplete)
            } catch {
                let reason = interruption.reason ?? error
                let exit = terminal.fail(reason)
                if flags.run.json { terminal.writeFailureJSON(reason, exit: exit) }
                throw exit
            }
        }
    }
}
