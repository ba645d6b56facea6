import ArgumentParser
import Foundation

struct AlbumsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "albums",
        abstract: "JSONPlaceholder's users, albums and photos as a browsable hierarchy of pages.",
        discussion: """
            Writes a list of users (index.html), a list of each user's albums with a cover photo (users/N/), a grid of \
            each album's photos with their titles on them (albums/N/), and a full-screen page per photo (photos/N.html) \
            with a toolbar and a details panel that a tap on the image hides or shows.

            JSONPlaceholder's photo URLs point to via.placeholder.com, which no longer exists. Vitrine rewrites \
            https://via.placeholder.com/600/92c952 to https://picsum.photos/seed/92c952/600 (the same for 150), with \
            --image-endpoint in place of https://picsum.photos; an image that still fails becomes a placeholder. \
            API responses and images are cached, so a second run of the full data set (10 users, 100 albums, 5,000 \
            photos) downloads nothing.

            \(exitStatusHelp)
            """
    )

    @OptionGroup var gallery: AlbumsGallery
    @OptionGroup var flags: BuildFlags

    func run() async throws {
        try await GalleryRun.execute(
            gallery.setup(folder: "", environment: ProcessInfo.processInfo.environment), flags: flags)
    }
}
