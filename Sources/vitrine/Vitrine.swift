import ArgumentParser
import Foundation
import VitrineBasics
import VitrineHTTP
import VitrineRender

@main
struct Vitrine: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vitrine",
        abstract: "Turn image-API searches into static HTML galleries.",
        discussion: """
            Writes a responsive grid page, one preview page per item and variant, the images (downloaded where their \
            license allows copies, otherwise shown from the API's own URL and credited), the theme's assets and the \
            XML model (gallery.xml) into the output folder. Open Output/index.html from disk or copy the folder to \
            any static host.

            \(exitStatusHelp)
            """,
        version: VitrineVersion.current,
        subcommands: [
            PixabayCommand.self, FlickrCommand.self, OpenverseCommand.self, CommonsCommand.self, ThumbnailsCommand.self,
            AlbumsCommand.self,
            BuildCommand.self,
            InitCommand.self, ThemeCommand.self, CacheCommand.self,
            DemoCommand.self,
            ServeCommand.self,
            SampleAPICommand.self, RandomCommand.self,
        ]
    )

    /// Bounds the allocator's arenas (MemoryTuning) and sets libxml2 up (its allocator hooks bound each template's
    /// memory) before anything else runs; a run whose report could not be written to standard output ends with exit
    /// status 73, not success.
    static func main() async {
        MemoryTuning.limitAllocatorArenas()
        LibXML.setUp()
        await main(nil)
        if StandardStreams.lostOutput { Foundation.exit(ExitStatus.cannotWrite.rawValue) }
    }
}

/// The exit statuses as `--help` lists them, the codes right-aligned and every line within 80 columns.
let exitStatusHelp =
    "Exit status:\n"
    + ExitStatus.allCases.sorted { $0.rawValue < $1.rawValue }.map { status in
        let code = String(status.rawValue)
        return String(repeating: " ", count: 5 - code.count) + code + "  " + status.meaning
    }.joined(separator: "\n")
