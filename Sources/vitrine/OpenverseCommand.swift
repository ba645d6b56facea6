import ArgumentParser
import Foundation

struct OpenverseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openverse",
        abstract: "A gallery of openly licensed works from Openverse: a search for TERM.",
        discussion: """
            Openverse gathers works under Creative Commons licenses and in the public domain from Flickr, \
            Wikimedia Commons, museums and others. Every item is credited to its creator, links back to the page it \
            came from and names its license, linked to the license's own page; its image is downloaded, as every \
            Openverse license allows copies. Results Openverse marks as mature are left out unless --mature is \
            given.

            Anonymous use needs no key: Openverse then gives at most 20 results a page and 20 pages, and throttles \
            requests (Vitrine waits as a 429's Retry-After asks). An access token in OPENVERSE_TOKEN (from \
            registering an application with Openverse) raises those limits.

            \(exitStatusHelp)
            """
    )

    @OptionGroup var gallery: OpenverseGallery
    @OptionGroup var flags: BuildFlags

    func run() async throws {
        try await GalleryRun.execute(
            gallery.setup(folder: "", environment: ProcessInfo.processInfo.environment), flags: flags)
    }
}
