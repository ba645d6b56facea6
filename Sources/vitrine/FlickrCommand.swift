import ArgumentParser
import Foundation

struct FlickrCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flickr",
        abstract: "A gallery of Flickr photos: a search for TERM, or the most recent photos.",
        discussion: """
            With a key (--key or FLICKR_API_KEY): flickr.photos.search for TERM, or flickr.photos.getRecent without \
            one, paginated. Without a key: Flickr's public feed, the latest 20 photos tagged with TERM's words, on \
            one page. Every item links back to its photo page on Flickr and credits its owner.

            \(exitStatusHelp)
            """
    )

    @OptionGroup var gallery: FlickrGallery
    @OptionGroup var flags: BuildFlags

    func run() async throws {
        try await GalleryRun.execute(
            gallery.setup(folder: "", environment: ProcessInfo.processInfo.environment), flags: flags)
    }
}
