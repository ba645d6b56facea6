import Foundation
import VitrineBasics
import VitrineHTTP
import VitrineModel
import VitrinePipeline
import VitrinePublish
import VitrineRender
import VitrineSources
import VitrineStore

/// What `vitrine` does with the library, written as a program outside the package would write it: the public
/// interface must be enough for it (`PublicInterfaceTests` type-checks it under another package's name). Never built
/// into a target; it is checked, not run.
func embedder() async throws {
    LibXML.setUp()
    print(VitrineVersion.current)
    let cache = CacheStore(root: CacheStore.defaultRoot())
    let configuration = TransferEngine.Configuration(
        concurrentTransfers: 4, connectTimeoutSeconds: 10, stallTimeoutSeconds: 20, transferTimeoutSeconds: 100)
    try await withTransferEngine(configuration: configuration) { engine in
        let fetcher = PoliteFetcher(
            engine, policy: RetryPolicy(retries: 2), quotas: QuotaLedger(cache: cache),
            events: { event in
                switch event {
                case .waiting(let seconds, let reason): print(seconds, reason)
                case .retrying(let url, let attempt, let reason): print(url, attempt, reason)
                }
            })
        let pipeline = GalleryPipeline(
            fetcher: fetcher, cache: cache, policy: CachePolicy(offline: false, refresh: true),
            progress: { event in
                switch event {
                case .searching(let what): print(what)
                case .images(let done, let total), .encoding(let done, let total), .rendering(let done, let total):
                    print(done, total)
                case .waiting(let seconds, let reason): print(seconds, reason)
                case .waitingForOutput(let folder): print(folder)
                case .retrying(let reason, let attempt): print(reason, attempt)
                case .warning(let text): print(text)
                }
            }, now: Date.init)
        let theme = try Theme.load(directory: URL(fileURLWithPath: "templates"))
        var options = BuildOptions(
            output: URL(fileURLWithPath: "out"), theme: Bool.random() ? theme : .builtIn, maximumImageBytes: 1 << 20,
            maximumResponseBytes: 1 << 20, force: false, frozen: false, timestamp: nil, strict: true,
            waitForOutput: false)
        options.history = HistoryOptions(previous: .published(at: "https://example.org/"), startNew: false)
        options.history = HistoryOptions(previous: .file(URL(fileURLWithPath: "history.json")))
        options.formats = [.avif, .webp]
        options.tileShape = .square
        let licenses = LicenseChoice("reusable") ?? .any
        print(licenses.description, FlickrSource.maximumPhotosPerPage)
        let sources: [any ImageSource] = [
            PixabaySource(term: "x", variantWord: "y", itemCount: 10, key: "k"),
            FlickrSource(term: "x", itemCount: 10, key: nil, licenses: licenses),
            ThumbnailSource(limit: 10), JSONPlaceholderSource(userLimit: 1, albumLimit: 2),
        ]
        let every = try UpdateInterval.parse("10m")
        let parts: [SitePart] =
            sources.enumerated().map { index, source in
                .gallery(GalleryPlan(folder: "g\(index)/", source: source, label: "g", itemsPerPage: 10, keepAll: true))
            } + [.random(RandomPagePlan(folder: "random/", source: PicsumSource(), every: every))]
        let site = SitePlan(title: "Site", baseURL: "https://example.org/", parts: parts)
        do {
            let summary = try await pipeline.build(site, options: options)
            print(summary.items, summary.losses, summary.warnings, summary.galleries?.first?.path ?? "")
            let shard = SiteShard(number: 1, of: 2)!
            print(shard.number, shard.count)
            _ = try await pipeline.build(site, shard: shard, config: "digest", options: options)
            _ = try await pipeline.merge(site, shards: [URL(fileURLWithPath: "s1")], config: "digest", options: options)
            _ = try await pipeline.run(parts[0], options: options)
            _ = try await pipeline.run(sources[0], label: "x", options: options)
        } catch let error as IncompleteGalleryError {
            print(error.summary.losses, error.sentence)
        } catch let error as NothingCachedError {
            print(error.url)
        } catch let error as OutputBusyError {
            print(error.folder)
        } catch let error as OutputOwnershipError {
            print(error.folder, error.foreignFiles)
        } catch let error as FileWriteError {
            print(error.path, error.reason, error.linkedFolder ?? "")
        } catch let error as ShardMergeError {
            if case .notAShard(let folder) = error { print(folder) }
        } catch let error as FrozenBuildError {
            if case .missing(let things) = error { print(things) }
        } catch let error as SourceError {
            if case .keyMissing(let source, let signup) = error { print(source, signup) }
        } catch let error as FetchError {
            if case .timedOut(let url, let limit) = error { print(url, limit) }
        } catch let error as PreviousHistoryUnavailableError {
            print(error.location, error.reason)
        } catch let error as HistoryUnsupportedError {
            print(error.detail)
        } catch let error as OutputManifestDamagedError {
            print(error.folder, error.reason)
        } catch let error as ForeignFileInTheWayError {
            print(error.folder, error.files)
        } catch let error as TemplateError {
            print(error.template, error.detail)
        } catch let error as LicenseChoiceError {
            print(error.sentence(choiceNamed: { "--license \($0.description)" }))
        } catch let error as UpdateIntervalError {
            print(error.text)
        } catch let error as any UserFacingError {
            switch error.kind {
            case .incomplete, .internalInconsistency, .invalidArgument, .badData, .nothingCached, .unavailable,
                .cannotWrite, .keyProblem, .temporary, .templateProblem:
                print(error.sentence, error)
            }
        }
        let random = RandomPagePipeline(fetcher: fetcher, cache: cache, progress: { print($0) }, now: Date.init)
        var randomOptions = RandomPageOptions(
            build: BuildOptions(output: URL(fileURLWithPath: "out"), theme: .builtIn, maximumImageBytes: 1),
            every: UpdateInterval(seconds: 600)!, offline: false, refresh: false)
        randomOptions.refresh = true
        do {
            let summary = try await random.run(UnsplashSource(key: "k", query: "q"), options: randomOptions)
            switch summary.outcome {
            case .updated, .kept: break
            case .stale(let reason): print(reason)
            }
            print(summary.photoID, summary.fetchedAt, summary.nextUpdate, summary.warnings, summary.pagesWritten)
        } catch is NoRandomImageYet {
            print("offline")
        }
    }
}

/// A fetcher of the embedder's own, for its tests.
struct CannedFetcher: HTTPFetching {
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        guard request.url.hasPrefix("https://") else { throw .refusedURL(url: request.publicURL) }
        print(request.headers, request.maximumBodyBytes)
        return FetchResponse(status: 200, headers: [:], body: [], effectiveURL: request.url)
    }
}
