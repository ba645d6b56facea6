import ArgumentParser
import Foundation
import VitrineModel

struct RandomCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "random",
        abstract: "A page with one random image that is replaced on a schedule, and a favorites page.",
        discussion: """
            Writes index.html (the image fitted to the screen width, its author, size, source page and what else \
            the API tells, and a countdown to the next image), favorites.html (favorites kept in the browser) and \
            random.json (the schedule and the image shown). A run before the next update keeps the image and asks \
            the network nothing; --watch keeps running and replaces the image on schedule, and a restarted watch \
            keeps the schedule. When no new image can be loaded, the page keeps the previous one and says so; the run exits 0 with a warning, or 2 with --strict.

            Sources: picsum (Lorem Picsum, no key; images are downloaded), or unsplash with --key or \
            UNSPLASH_ACCESS_KEY (images are hotlinked, credited with referral links, and each new photo is \
            reported to Unsplash's download_location, as Unsplash's terms require). Without --provider (or its \
            other name --source), unsplash when a key is set, else picsum.

            --now 2026-11-21T14:00:00Z runs as if the clock read that instant (to preview or reproduce a schedule).

            \(exitStatusHelp)
            """
    )

    @OptionGroup var gallery: RandomGallery
    @OptionGroup var flags: BuildFlags

    func run() async throws {
        try await RandomRun.execute(
            source: gallery.source(environment: ProcessInfo.processInfo.environment), flags: flags,
            every: try UpdateInterval.parse(gallery.every), watch: gallery.watch,
            secrets: [gallery.accessKey(environment: ProcessInfo.processInfo.environment)])
    }
}
