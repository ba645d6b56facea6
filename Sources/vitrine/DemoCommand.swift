import ArgumentParser
import Foundation
import SampleAPI
import VitrineCore

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Build a gallery from the bundled sample API: no network, no key.",
        discussion: "Starts the sample API on 127.0.0.1, builds the Pixabay gallery for TERM from it, and stops it."
    )

    @Argument(help: "The search term.")
    var term = "Hamburg"

    @Option(name: .long, help: ArgumentHelp("Items per grid page.", valueName: "n"))
    var perPage = 10

    @Option(name: .long, help: ArgumentHelp("Number of grid pages.", valueName: "n"))
    var pages = 2

    @Option(
        name: .long,
        help: ArgumentHelp("Port for the sample API; 0 picks a free one (default: 8717 if free).", valueName: "n"))
    var port: UInt16?

    @OptionGroup var flags: BuildFlags

    func run() async throws {
        let server = SampleAPIServer()
        do {
            try await server.start(port: port ?? 8717)
        } catch  where port == nil {
            try await server.start(port: 0)
        }
        let endpoint = await server.pixabayEndpoint
        do {
            let source = PixabaySource(
                term: term, variantWord: "graffiti", itemCount: perPage * pages, key: SampleAPIServer.demoKey,
                endpoint: endpoint)
            try await GalleryRun.execute(
                source: source, label: "the sample API for “\(term)”", flags: flags, itemsPerPage: perPage, secrets: [])
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
