import ArgumentParser
import Foundation
import SampleAPI
import VitrineModel
import VitrineSources

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Build a gallery from the bundled sample API: no network, no key.",
        discussion: """
            Starts the sample API on 127.0.0.1, builds a gallery from it with the source chosen by --source, and \
            stops it. pixabay: TERM paired with "TERM graffiti"; flickr: a Flickr search for TERM; flickr-feed: \
            Flickr's public feed (no key); openverse: an Openverse search for TERM, anonymous; commons: a Wikimedia Commons search for TERM; thumbnails: a square-tiled grid of the thumbnail list; random: the \
            random-image page and its favorites page from the sample Lorem Picsum (a new image every 10 minutes); albums: \
            JSONPlaceholder's users, albums and photos (--users and --albums, default 3 of each).
            """
    )

    /// The sample API's sources a demo can show.
    enum Source: String, ExpressibleByArgument, CaseIterable {
        case pixabay, flickr
        case flickrFeed = "flickr-feed"
        case openverse
        case commons
        case thumbnails
        case random
        case albums
    }

    @Argument(help: "The search term.")
    var term = "Hamburg"

    @Option(name: .long, help: ArgumentHelp("The sample API to build from.", valueName: "name"))
    var source = Source.pixabay

    @Option(name: .long, help: ArgumentHelp("Items per grid page (default: the source's own).", valueName: "n"))
    var perPage: Int?

    @Option(name: .long, help: ArgumentHelp("Number of grid pages.", valueName: "n"))
    var pages = 2

    @Option(
        name: .long,
        help: ArgumentHelp("Port for the sample API; 0 picks a free one (default: 8717 if free).", valueName: "n"))
    var port: UInt16?

    @Option(name: .long, help: ArgumentHelp("albums: the first N users.", valueName: "n"))
    var users = 3

    @Option(name: .long, help: ArgumentHelp("albums: the first N albums of each user.", valueName: "n"))
    var albums = 3

    @OptionGroup var flags: BuildFlags

    func validate() throws {
        let most = FlickrSource.maximumPhotosPerPage
        if source == .flickr, let perPage, perPage > most {
            throw ValidationError(
                "--per-page must be at most \(most) for Flickr: its API terms allow no more than \(most) of its "
                    + "members' photos on one page.")
        }
    }

    func run() async throws {
        let server = SampleAPIServer()
        if let port {
            try await ListeningPort.bind(Int(port)) { try await server.start(port: port) }
        } else {
            do {
                try await server.start(port: 8717)
            } catch {
                try await server.start(port: 0)
            }
        }
        do {
            try await build(from: server)
        } catch {
            await server.stop()
            throw error
        }
        let (base, shownPort) = (await server.baseURL, await server.port)
        await server.stop()
        if [.flickr, .flickrFeed, .openverse, .commons, .thumbnails, .albums].contains(source), !flags.run.quiet {
            StandardStreams.error(
                "Pictures whose license does not allow copies are shown from the sample API's own URLs (\(base)): "
                    + "run `vitrine sample-api --port \(shownPort)` to see them.\n")
        }
    }

    private func build(from server: SampleAPIServer) async throws {
        let key = SampleAPIServer.demoKey
        switch source {
        case .pixabay:
            let perPage = perPage ?? 10
            let source = PixabaySource(
                term: term, variantWord: "graffiti", itemCount: perPage * pages, key: key,
                endpoint: await server.pixabayEndpoint)
            try await GalleryRun.execute(
                source: source, label: "the sample Pixabay API for “\(term)”", flags: flags, itemsPerPage: perPage,
                secrets: [])
        case .flickr, .flickrFeed:
            let feed = source == .flickrFeed
            let perPage = perPage ?? (feed ? 20 : 25)
            let source = FlickrSource(
                term: term, itemCount: feed ? 20 : perPage * pages, key: feed ? nil : key,
                endpoint: await server.flickrEndpoint)
            try await GalleryRun.execute(
                source: source, label: "the sample Flickr API for “\(term)”", flags: flags, itemsPerPage: perPage,
                secrets: [])
        case .openverse:
            let perPage = perPage ?? 20
            let source = OpenverseSource(
                term: term, itemCount: perPage * pages, endpoint: await server.openverseEndpoint)
            try await GalleryRun.execute(
                source: source, label: "the sample Openverse API for “\(term)”", flags: flags, itemsPerPage: perPage,
                secrets: [])
        case .commons:
            let perPage = perPage ?? 20
            let source = CommonsSource(
                term: term, itemCount: perPage * pages, endpoint: await server.commonsEndpoint,
                contact: "vitrine demo, sample API")
            try await GalleryRun.execute(
                source: source, label: "the sample Wikimedia Commons API for “\(term)”", flags: flags,
                itemsPerPage: perPage, secrets: [])
        case .thumbnails:
            let limit = (perPage ?? 120) * pages
            try await GalleryRun.execute(
                source: ThumbnailSource(limit: limit, endpoint: await server.thumbnailsEndpoint),
                label: "the sample thumbnail list", flags: flags, itemsPerPage: perPage ?? limit, secrets: [],
                tileShape: .square)
        case .random:
            try await RandomRun.execute(
                source: PicsumSource(endpoint: await server.picsumEndpoint), flags: flags,
                every: UpdateInterval(seconds: 600)!, watch: false, secrets: [])
        case .albums:
            let source = JSONPlaceholderSource(
                endpoint: await server.jsonPlaceholderEndpoint, imageEndpoint: await server.picsumEndpoint,
                userLimit: users, albumLimit: albums)
            try await GalleryRun.execute(
                source: source, label: "the sample JSONPlaceholder albums", flags: flags,
                itemsPerPage: perPage ?? 25, secrets: [])
        }
    }
}
