import Foundation
import VitrineBasics
import VitrineHTTP
import VitrineModel
import VitrinePublish
import VitrineRender
import VitrineSources
import VitrineStore

/// Settings of one run of the standalone random-image page: a build's (`BuildOptions`: the output folder, the
/// theme, the size limits, `force`, `frozen`, waiting for the output folder) and the page's own.
public struct RandomPageOptions: Sendable {
    /// The settings every build has; the page keeps no history, and whether a stale image is a failure is the
    /// caller's to say (`RandomRunSummary.outcome`), so `history` and `strict` are not read.
    public var build: BuildOptions
    /// How often the page shows a new image.
    public var every: UpdateInterval
    /// Never touch the network: keep the image shown.
    public var offline: Bool
    /// Fetch a new image now, whatever the schedule says.
    public var refresh: Bool

    /// A run into `build.output` that shows a new image every `every`; by default online, on schedule.
    public init(build: BuildOptions, every: UpdateInterval, offline: Bool = false, refresh: Bool = false) {
        self.build = build
        self.every = every
        self.offline = offline
        self.refresh = refresh
    }
}

/// What one run of the random-image page did.
public struct RandomRunSummary: Sendable, Equatable {
    /// What became of the image.
    public enum Outcome: Sendable, Equatable {
        /// A new image replaced the old one (or came first).
        case updated
        /// It was not time yet; the image stayed.
        case kept
        /// It was time, but no new image could be loaded; the earlier one stayed.
        case stale(reason: String)
    }

    /// Whether the image changed.
    public var outcome: Outcome
    /// The API's id of the image shown.
    public var photoID: String
    /// When the image shown was fetched.
    public var fetchedAt: Date
    /// When a run will next fetch a new image.
    public var nextUpdate: Date
    /// Images fetched in this run.
    public var imagesDownloaded = 0
    /// Pages written with new bytes.
    public var pagesWritten = 0
    /// Pages left as they were.
    public var pagesUnchanged = 0
    /// Files of earlier runs that this one removed.
    public var filesRemoved = 0
    /// Warnings to show the user, one sentence each.
    public var warnings: [String] = []
    /// How long the run took, in seconds.
    public var seconds: Double = 0

    /// One line for stderr.
    package var line: String {
        let what =
            switch outcome {
            case .updated: "New image \(photoID)"
            case .kept: "Kept image \(photoID) (not due yet)"
            case .stale: "Kept image \(photoID) from \(RandomPagePipeline.describe(fetchedAt))"
            }
        var parts = [what, "next update at \(RandomPagePipeline.describe(nextUpdate))"]
        if imagesDownloaded > 0 {
            parts.append("\(imagesDownloaded) image\(imagesDownloaded == 1 ? "" : "s") downloaded")
        }
        parts.append("\(pagesWritten) page\(pagesWritten == 1 ? "" : "s") written")
        if pagesUnchanged > 0 { parts.append("\(pagesUnchanged) unchanged") }
        if filesRemoved > 0 { parts.append("\(filesRemoved) old file\(filesRemoved == 1 ? "" : "s") removed") }
        return parts.joined(separator: ", ") + String(format: " in %.1f s", seconds)
    }
}

/// What a run of the random page shows, decided before anything is written: the state to keep (its history
/// limited to images that can still be placed), the page's model, and what became of the image.
struct RandomPageUpdate {
    /// An image file of the page and where it goes under the output root.
    struct File {
        var path: String
        var record: CacheStore.ImageRecord
    }

    var state: RandomPageState
    var model: RandomPageModel
    var outcome: RandomRunSummary.Outcome
    var downloaded: Int
    var warnings: [String]

    /// The files of the image shown and of the earlier ones kept for favorites.
    var files: [File] {
        (state.images + state.history).compactMap { image in
            guard let path = image.path, let record = RandomPagePipeline.record(of: image) else { return nil }
            return File(path: path, record: record)
        }
    }
}

/// The run may not use the network (offline), and no image was ever fetched into the output folder.
public struct NoRandomImageYet: UserFacingError {
    /// Says no image was ever fetched here and that a run with the network must come first.
    public var sentence: String {
        "No random image has been fetched into this folder yet, and this run may not use the network; run once "
            + "online first."
    }
    /// Always `.nothingCached`.
    public var kind: FailureKind { .nothingCached }
}

/// The random-image page on the one pipeline: source -> fetch -> cache -> model -> render -> publish, with the
/// schedule kept in the output (`random.json`). A run that is not due asks the network nothing; a due run that
/// cannot load a new image keeps the previous one and says so on the page.
public struct RandomPagePipeline: Sendable {
    package var fetcher: any HTTPFetching
    package var cache: CacheStore
    package var progress: @Sendable (ProgressEvent) -> Void
    package var now: @Sendable () -> Date

    /// A pipeline that fetches through `fetcher`, keeps images in `cache`, reports on `progress`, and reads the
    /// schedule on `now`.
    public init(
        fetcher: any HTTPFetching, cache: CacheStore, progress: @escaping @Sendable (ProgressEvent) -> Void = { _ in },
        now: @escaping @Sendable () -> Date
    ) {
        self.fetcher = fetcher
        self.cache = cache
        self.progress = progress
        self.now = now
    }

    /// Builds the page at the root of the output folder, as a build of one random part (`GalleryBuild`), and says
    /// what became of its image.
    public func run(_ source: any RandomImageSource, options: RandomPageOptions) async throws -> RandomRunSummary {
        let started = ContinuousClock.now
        var build = options.build
        build.history = nil
        build.strict = false
        let pipeline = GalleryPipeline(
            fetcher: fetcher, cache: cache, policy: CachePolicy(offline: options.offline, refresh: options.refresh),
            progress: progress, now: now)
        let built = try await GalleryBuild(
            pipeline: pipeline, parts: [.random(RandomPagePlan(folder: "", source: source, every: options.every))],
            site: nil, options: build
        ).run()
        var summary: RandomRunSummary
        if case .random(_, let state, let outcome)? = built.parts.first?.content {
            summary = RandomRunSummary(
                outcome: outcome, photoID: state.photo.id, fetchedAt: state.fetchedAt, nextUpdate: state.nextUpdate)
        } else {
            // The output was current: the page shows what `random.json` says, until its next update.
            guard let state = RandomPageState.read(in: build.output) else {
                throw InternalInconsistencyError(detail: "the random page is current but its random.json is unreadable")
            }
            summary = RandomRunSummary(
                outcome: .kept, photoID: state.photo.id, fetchedAt: state.fetchedAt, nextUpdate: state.nextUpdate)
        }
        summary.imagesDownloaded = built.summary.imagesDownloaded
        summary.pagesWritten = built.summary.pagesWritten
        summary.pagesUnchanged = built.summary.pagesUnchanged
        summary.filesRemoved = built.summary.filesRemoved
        summary.warnings = built.summary.warnings
        summary.seconds = (ContinuousClock.now - started).seconds
        return summary
    }

    /// A time to the second, as the schedule and `random.json` keep it.
    static func toTheSecond(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    /// Decides what the page in `folder` of `options.build.output` shows at `now`, given the state a previous run left
    /// (`previous`): the same image when it is not due (or `frozen`), a new one when it is, or the same one with a
    /// notice when no new one can be loaded. Nothing is written.
    func update(
        _ source: any RandomImageSource, previous stored: RandomPageState?, folder: String = "",
        site: GalleryModel.SiteLink? = nil, options: RandomPageOptions, at now: Date
    ) async throws -> RandomPageUpdate {
        let root = options.build.output
        var previous = stored.flatMap { state in
            state.source == source.description.name && (options.build.frozen || isUsable(state, in: root)) ? state : nil
        }
        if var kept = previous {
            kept.nextUpdate = RandomSchedule.rescheduled(kept, every: options.every)
            kept.everySeconds = options.every.seconds
            previous = kept
        }
        var warnings: [String] = []
        var downloaded = 0
        let state: RandomPageState
        let outcome: RandomRunSummary.Outcome
        let due = options.refresh || RandomSchedule.isDue(previous, source: source.description.name, at: now)
        if options.build.frozen {
            guard let kept = previous else { throw FrozenBuildError.noRandomState(folder: folder) }
            let missing = (kept.images + kept.history).filter { !isCached($0) }.map { "the image \($0.remoteURL)" }
            if !missing.isEmpty { throw FrozenBuildError.missing(missing) }
            state = kept
            outcome = .kept
        } else if let kept = previous, !due {
            state = kept
            outcome = .kept
        } else if options.offline {
            guard var kept = previous else { throw NoRandomImageYet() }
            let reason = "the run was offline, so no new image was asked for"
            kept.lastFailure = .init(at: now, reason: reason)
            kept.nextUpdate = RandomSchedule.retry(afterFailureAt: now, every: options.every)
            state = kept
            outcome = .stale(reason: reason)
        } else {
            progress(.searching(source.description.label))
            do {
                var fresh = try await fetchNew(
                    source.seeded(Self.seed(folder: folder, at: now)), avoiding: previous?.photo.id, at: now,
                    options: options)
                downloaded = fresh.downloaded
                warnings += fresh.warnings
                if let previous {
                    let earlier = (previous.images + previous.history).filter { $0.path != nil }
                    let current = Set(fresh.state.images.compactMap(\.path))
                    var seen = current
                    fresh.state.history = Array(
                        earlier.filter { seen.insert($0.path!).inserted }.prefix(RandomPageState.historyLimit))
                }
                state = fresh.state
                outcome = .updated
            } catch let error as CancellationError {
                throw error
            } catch {
                guard var kept = previous, Self.previousImageMayStand(after: error) else { throw error }
                let reason = Self.sentence(of: error)
                kept.lastFailure = .init(at: now, reason: reason)
                kept.nextUpdate = RandomSchedule.retry(afterFailureAt: now, every: options.every)
                state = kept
                outcome = .stale(reason: reason)
                warnings.append(
                    "\(source.description.label): a new image could not be loaded (\(reason)); "
                        + "the one fetched at \(Self.describe(kept.fetchedAt)) stays.")
            }
        }
        warnings.forEach { progress(.warning($0)) }

        var notices: [GalleryModel.Notice] = []
        if let failure = state.lastFailure {
            notices.append(
                .init(
                    kind: .stale,
                    text: "A fresh image could not be loaded at \(Self.describe(failure.at)) (\(failure.reason)). "
                        + "The image shown was fetched at \(Self.describe(state.fetchedAt))."))
        }
        let model = RandomPageModel(
            state: state, source: source.description, policy: source.usage, every: options.every, notices: notices,
            folder: folder, site: site)
        var written = state
        written.history = options.build.frozen ? state.history : placeableHistory(state, in: root)
        return RandomPageUpdate(
            state: written, model: model, outcome: outcome, downloaded: downloaded, warnings: warnings)
    }

    /// The seed of the update of the page in `folder` at `now`: the same clock gives the same photo where the API
    /// picks by seed, so that two builds from the same inputs give the same bytes.
    static func seed(folder: String, at now: Date) -> String {
        String(SHA256Hasher.hex(of: "vitrine-random-1\u{0}\(folder)\u{0}\(RandomPageModel.timestamp(now))").prefix(16))
    }

    // MARK: - Fetching a new image

    private struct Fresh {
        var state: RandomPageState
        var downloaded: Int
        var warnings: [String]
    }

    private func fetchNew(
        _ source: any RandomImageSource, avoiding currentID: String?, at now: Date, options: RandomPageOptions
    ) async throws -> Fresh {
        let api = UncachedAPIClient(
            fetcher: fetcher, maximumResponseBytes: options.build.maximumResponseBytes, now: { [now] in now })
        let photo = try await source.pick(avoiding: currentID, using: api)
        var images: [RandomPageState.ShownImage] = []
        var downloaded = 0
        switch source.usage.delivery {
        case .download:
            let result = try await ImageDownloader(
                fetcher: fetcher, cache: cache, offline: false, maximumBytes: options.build.maximumImageBytes,
                progress: progress
            ).download(photo.renditions.map(\.url))
            downloaded = result.downloaded
            for rendition in photo.renditions {
                switch result.outcomes[rendition.url] {
                case .stored(let record):
                    let measured = record.width != nil && record.height != nil
                    images.append(
                        .init(
                            remoteURL: rendition.url, path: GalleryAssembler.localPath(of: record),
                            sha256: record.sha256, byteCount: record.byteCount, mediaType: record.format.mediaType,
                            width: measured ? record.width : rendition.width,
                            height: measured ? record.height : rendition.height))
                case .failed(let reason):
                    throw RandomDownloadError(reason: reason)
                case nil:
                    throw RandomDownloadError(reason: "Not downloaded")
                }
            }
            images = Self.distinct(images)
        case .hotlink:
            images = photo.renditions.map {
                .init(
                    remoteURL: $0.url, path: nil, sha256: nil, byteCount: nil, mediaType: nil, width: $0.width,
                    height: $0.height)
            }
        }
        var warnings: [String] = []
        if source.usage.reportsUse {
            if let report = source.useReport(for: photo) {
                do {
                    let response = try await fetcher.fetch(report)
                    if !(200..<300).contains(response.status) {
                        warnings.append(
                            "\(source.description.label) answered HTTP \(response.status) when told photo \(photo.id) is used."
                        )
                    }
                } catch .cancelled {
                    throw CancellationError()
                } catch {
                    warnings.append(
                        "\(source.description.label) could not be told photo \(photo.id) is used: \(error.shortReason)."
                    )
                }
            } else {
                warnings.append(
                    "\(source.description.label) gave no usable download_location for photo \(photo.id), so its use was not reported."
                )
            }
        }
        let state = RandomPageState(
            source: source.description.name, delivery: source.usage.delivery, everySeconds: options.every.seconds,
            photo: photo, images: images, fetchedAt: now,
            nextUpdate: RandomSchedule.next(afterUpdateAt: now, every: options.every), lastFailure: nil)
        return Fresh(state: state, downloaded: downloaded, warnings: warnings)
    }

    /// Renditions that turned out to be the same file are shown once.
    private static func distinct(_ images: [RandomPageState.ShownImage]) -> [RandomPageState.ShownImage] {
        var seen = Set<String>()
        return images.filter { seen.insert($0.path ?? $0.remoteURL).inserted }
    }

    /// Whether the page may keep its earlier image after `error`: yes when the API could not be reached or
    /// answered badly; no when the user must act (a missing or rejected key, a wrong option).
    static func previousImageMayStand(after error: any Error) -> Bool {
        switch error {
        case let error as SourceError:
            switch error {
            case .keyMissing, .keyRejected, .invalidOption: false
            default: true
            }
        case is FetchError, is RandomDownloadError: true
        default: false
        }
    }

    /// The error's sentence without its final full stop, to sit inside a notice.
    static func sentence(of error: any Error) -> String {
        let sentence = (error as? any UserFacingError)?.sentence ?? "\(error)"
        return sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
    }

    // MARK: - Files

    static func record(of image: RandomPageState.ShownImage) -> CacheStore.ImageRecord? {
        guard let sha256 = image.sha256, let byteCount = image.byteCount, let mediaType = image.mediaType,
            let format = ImageFormat(mediaType: mediaType)
        else { return nil }
        return CacheStore.ImageRecord(
            sha256: sha256, format: format, byteCount: byteCount, width: image.width, height: image.height)
    }

    /// Whether a file image is in the output folder already or can be copied from the cache.
    private func isPlaceable(_ image: RandomPageState.ShownImage, in root: URL) -> Bool {
        guard let path = image.path else { return true }
        guard let record = Self.record(of: image) else { return false }
        return Self.size(of: root.appendingPathComponent(path)) == record.byteCount || isCached(image)
    }

    /// Whether a file image is in the cache, as a frozen rebuild needs it.
    private func isCached(_ image: RandomPageState.ShownImage) -> Bool {
        guard image.path != nil else { return true }
        guard let record = Self.record(of: image) else { return false }
        return Self.size(of: cache.imageFile(for: record)) == record.byteCount
    }

    private static func size(of file: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int
    }

    private func isUsable(_ state: RandomPageState, in root: URL) -> Bool {
        !state.images.isEmpty && state.images.allSatisfy { isPlaceable($0, in: root) }
    }

    private func placeableHistory(_ state: RandomPageState, in root: URL) -> [RandomPageState.ShownImage] {
        let current = Set(state.images.compactMap(\.path))
        return state.history.filter { $0.path != nil && !current.contains($0.path!) && isPlaceable($0, in: root) }
    }

    /// A time for messages and notices: UTC, to the minute.
    static func describe(_ date: Date) -> String {
        GalleryPipeline.describe(date)
    }
}

/// A new photo was chosen, but its image could not be downloaded.
struct RandomDownloadError: UserFacingError {
    let reason: String
    var sentence: String { "The new photo's image could not be downloaded (\(reason))." }
    var kind: FailureKind { .unavailable }
}
