import ArgumentParser
import Foundation
import VitrineModel
import VitrinePipeline
import VitrineSources

/// `vitrine random`'s options, also those of a `source = "random"` table of `vitrine build`.
struct RandomGallery: GalleryOptions {
    static let sourceName = "random"
    static let keyVariable: String? = "UNSPLASH_ACCESS_KEY"
    static let configKeys: [String: ConfigKeyKind] = [
        "provider": .option, "every": .option, "query": .option, "endpoint": .option,
    ]
    static let refusedKeys = [
        "watch":
            "--watch keeps vitrine random running on its own; a site build runs once, so run vitrine build on a schedule instead"
    ]

    /// The random-image APIs.
    enum Provider: String, ExpressibleByArgument, CaseIterable {
        case picsum, unsplash
    }

    @Option(
        name: [.long, .customLong("source")],
        help: ArgumentHelp("picsum or unsplash (default: unsplash with a key).", valueName: "name"))
    var provider: Provider?

    @Option(
        name: .long,
        help: ArgumentHelp("How long each image stays: 30s, 10m, 1h, 1h30m (5 s to 30 days).", valueName: "duration"))
    var every = "10m"

    @Flag(name: .long, help: "Keep running and replace the image on schedule; Ctrl-C stops it.")
    var watch = false

    @Option(
        name: .long, help: ArgumentHelp("The Unsplash access key (default: $UNSPLASH_ACCESS_KEY).", valueName: "key"))
    var key: String?

    @Option(name: .long, help: ArgumentHelp("Unsplash only: limit the random photo to this search.", valueName: "text"))
    var query: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The API's base URL (default: https://picsum.photos/ or https://api.unsplash.com/).", valueName: "url"))
    var endpoint: String?

    func validate() throws {
        do {
            _ = try UpdateInterval.parse(every)
        } catch {
            throw ValidationError(FailureReport.sentence(for: error))
        }
        let environment = ProcessInfo.processInfo.environment
        if query != nil && resolvedProvider(environment: environment) != .unsplash {
            throw ValidationError("--query works with Unsplash only (--provider unsplash).")
        }
        if let key, !key.isEmpty, provider == .picsum {
            throw ValidationError("--key is for Unsplash; Lorem Picsum needs no key.")
        }
    }

    func accessKey(environment: [String: String]) -> String {
        key ?? environment["UNSPLASH_ACCESS_KEY"] ?? ""
    }

    func resolvedProvider(environment: [String: String]) -> Provider {
        provider ?? (accessKey(environment: environment).isEmpty ? .picsum : .unsplash)
    }

    func source(environment: [String: String]) -> any RandomImageSource {
        switch resolvedProvider(environment: environment) {
        case .picsum: PicsumSource(endpoint: endpoint ?? PicsumSource.defaultEndpoint)
        case .unsplash:
            UnsplashSource(
                key: accessKey(environment: environment), endpoint: endpoint ?? UnsplashSource.defaultEndpoint,
                query: query)
        }
    }

    var folderName: String { "random" }

    func setup(folder: String, environment: [String: String]) -> GallerySetup {
        // validate() has parsed it.
        let every = (try? UpdateInterval.parse(every)) ?? UpdateInterval(seconds: 600)!
        return GallerySetup(
            plan: .random(RandomPagePlan(folder: folder, source: source(environment: environment), every: every)),
            secrets: [accessKey(environment: environment)])
    }
}
