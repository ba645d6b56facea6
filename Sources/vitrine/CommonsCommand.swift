import ArgumentParser
import Foundation

struct CommonsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "commons",
        abstract: "A gallery of Wikimedia Commons files: a search for TERM.",
        discussion: """
            Searches the files of Wikimedia Commons (MediaWiki's Action API) and shows each by a rendition the wiki \
            scales to the width the pages need. Every item names its author (the wiki's Artist field, as text, with \
            its link), links back to its description page and names its license, linked where the wiki gives a \
            link. Files whose license allows copies are downloaded; a file that reports no license is shown from \
            the wiki's own URL, never copied. Documents, sounds and films are left out; an SVG is shown by its PNG \
            rendition.

            Wikimedia asks every client to name a way to reach whoever runs it: pass --contact (an email address \
            or a URL) or set VITRINE_CONTACT. Requests are made one at a time.

            \(exitStatusHelp)
            """
    )

    @OptionGroup var gallery: CommonsGallery
    @OptionGroup var flags: BuildFlags

    func validate() throws {
        try gallery.requireContact(environment: ProcessInfo.processInfo.environment)
    }

    func run() async throws {
        try await GalleryRun.execute(
            gallery.setup(folder: "", environment: ProcessInfo.processInfo.environment), flags: flags)
    }
}
