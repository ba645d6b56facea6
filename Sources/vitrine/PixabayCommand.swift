import ArgumentParser
import Foundation

struct PixabayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pixabay",
        abstract: "A gallery pairing Pixabay's hits for TERM with its hits for “TERM graffiti”.",
        discussion: """
            Item i pairs the i-th hit for TERM with the i-th hit for "TERM VARIANT". Each item has a preview page \
            per variant; when the variant search has fewer hits, the item says so. API responses are cached for \
            24 hours, as Pixabay requires, and images are downloaded, as Pixabay's terms require.

            \(exitStatusHelp)
            """
    )

    @OptionGroup var gallery: PixabayGallery
    @OptionGroup var flags: BuildFlags

    func run() async throws {
        try await GalleryRun.execute(
            gallery.setup(folder: "", environment: ProcessInfo.processInfo.environment), flags: flags)
    }
}
