import ArgumentParser
import Foundation

struct ThumbnailsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnails",
        abstract: "A square-tiled, lazy-loading grid of a thumbnail-list API (the media-coverage API by default).",
        discussion: """
            Reads a JSON array whose elements carry thumbnail {domain, basePath, key, qualities, aspectRatio}; each \
            image is domain/basePath/0/key, and tiles use the largest listed quality.

            \(exitStatusHelp)
            """
    )

    @OptionGroup var gallery: ThumbnailsGallery
    @OptionGroup var flags: BuildFlags

    func run() async throws {
        try await GalleryRun.execute(
            gallery.setup(folder: "", environment: ProcessInfo.processInfo.environment), flags: flags)
    }
}
