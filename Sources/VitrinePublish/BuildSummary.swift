import Foundation

/// What a run did, for the summary line, an all-or-nothing build and a machine-readable report: totals, and the same counts for each
/// gallery of a site build.
public struct BuildSummary: Sendable, Codable, Equatable {
    /// Items in the galleries.
    public var items = 0
    /// Images fetched from their APIs in this run.
    public var imagesDownloaded = 0
    /// Images found in the cache.
    public var imagesFromCache = 0
    /// Images that could not be had; their tiles say why.
    public var imagesFailed = 0
    /// Images the cache lacked and that could not be downloaded, kept from the output folder's own copies.
    public var imagesFromOutput = 0
    /// Re-encoded copies of images (AVIF, WebP) made in this run; those from the cache are not counted.
    public var imagesEncoded = 0
    /// Results the APIs returned that could not be used (each has a warning).
    public var resultsSkipped = 0
    /// Requests sent to the APIs.
    public var apiRequests = 0
    /// API answers taken from the cache.
    public var apiCacheHits = 0
    /// When the older cached results shown were fetched, if the network failed and they stood in.
    public var staleSince: Date?
    /// Pages whose inputs or templates changed, so they were rendered again.
    public var pagesRendered = 0
    /// Pages written with new bytes.
    public var pagesWritten = 0
    /// Pages left as they were: not rendered again, or rendered to the same bytes.
    public var pagesUnchanged = 0
    /// Files of earlier builds that this one removed.
    public var filesRemoved = 0
    /// Warnings to show the user, one sentence each.
    public var warnings: [String] = []
    /// How long the build took, in seconds.
    public var seconds: Double = 0
    /// The output was found to be exactly what these inputs give, so nothing was read beyond `stat`s, rendered or
    /// written.
    public var upToDate = false
    /// Each gallery's own counts (only in the totals).
    public var galleries: [Gallery]?
    /// What keeping the cache within its size did after the build (only in the totals); nil when it was not asked.
    public var cache: CacheUpkeep?

    /// What a build did to keep the cache within its size.
    public struct CacheUpkeep: Sendable, Codable, Equatable {
        /// The size asked for, in bytes.
        public var maximumBytes: Int64
        /// The size of the cache's entries after the build, in bytes.
        public var bytesAfter: Int64 = 0
        /// Entries removed, least recently used first.
        public var entriesRemoved = 0
        /// The size of the entries removed, in bytes.
        public var bytesRemoved: Int64 = 0
        /// The size of what this build used, which it never removes.
        public var bytesUsed: Int64 = 0
        /// Why the cache was not walked: it was not pruned (another run was using it), or it had no need to be.
        public var skipped: String?
        /// When it was not walked because its ledger showed it within its size: the most it holds, in bytes.
        public var bytesAtMost: Int64?

        package init(maximumBytes: Int64) {
            self.maximumBytes = maximumBytes
        }
    }

    /// One gallery's part of a build.
    public struct Gallery: Sendable, Codable, Equatable {
        /// Its folder under the output root ("" for a gallery built on its own).
        public var path: String
        /// The source's name ("pixabay", "flickr", …).
        public var source: String
        /// The searches it made.
        public var queries: [String]
        /// Its counts.
        public var summary: BuildSummary

        package init(path: String, source: String, queries: [String], summary: BuildSummary) {
            self.path = path
            self.source = source
            self.queries = queries
            self.summary = summary
        }
    }

    package init() {}

    /// Adds a gallery's counts to these totals and lists it.
    package mutating func add(_ gallery: Gallery) {
        let counts = gallery.summary
        items += counts.items
        imagesDownloaded += counts.imagesDownloaded
        imagesFromCache += counts.imagesFromCache
        imagesFailed += counts.imagesFailed
        imagesFromOutput += counts.imagesFromOutput
        imagesEncoded += counts.imagesEncoded
        resultsSkipped += counts.resultsSkipped
        apiRequests += counts.apiRequests
        apiCacheHits += counts.apiCacheHits
        if let stale = counts.staleSince { staleSince = min(staleSince ?? stale, stale) }
        pagesRendered += counts.pagesRendered
        pagesWritten += counts.pagesWritten
        pagesUnchanged += counts.pagesUnchanged
        filesRemoved += counts.filesRemoved
        warnings += counts.warnings
        galleries = (galleries ?? []) + [gallery]
    }

    /// What the same build reports when run again and finding nothing to do: every answer and image from the
    /// cache, every page unchanged, nothing removed.
    package var unchanged: BuildSummary {
        var summary = self
        summary.apiCacheHits += apiRequests
        summary.apiRequests = 0
        summary.imagesFromCache += imagesDownloaded
        summary.imagesDownloaded = 0
        summary.imagesFromCache += imagesFromOutput
        summary.imagesFromOutput = 0
        summary.imagesEncoded = 0
        summary.pagesUnchanged += pagesWritten
        summary.pagesRendered = 0
        summary.pagesWritten = 0
        summary.filesRemoved = 0
        summary.seconds = 0
        summary.upToDate = true
        summary.galleries = galleries?.map { gallery in
            var gallery = gallery
            gallery.summary = gallery.summary.unchanged
            return gallery
        }
        return summary
    }

    /// Anything the gallery lacks that a perfect run would have: failed images, skipped results, stale results.
    public var losses: Int { imagesFailed + resultsSkipped + (staleSince == nil ? 0 : 1) }

    /// The report as JSON: stable key order, dates in ISO 8601.
    package func json(status: String) -> String {
        struct Report: Encodable {
            var status: String
            var losses: Int
            var summary: BuildSummary
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = (try? encoder.encode(Report(status: status, losses: losses, summary: self))) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// One line: items, images downloaded / from cache, pages written, time.
    package var line: String {
        if upToDate {
            return
                "Up to date: \(items) item\(items == 1 ? "" : "s"), \(pagesUnchanged) page\(pagesUnchanged == 1 ? "" : "s") "
                + String(format: "unchanged (checked in %.2f s)", seconds)
        }
        var parts = ["\(items) item\(items == 1 ? "" : "s")"]
        parts.append(
            "\(imagesDownloaded) image\(imagesDownloaded == 1 ? "" : "s") downloaded, \(imagesFromCache) from cache")
        if imagesFailed > 0 { parts.append("\(imagesFailed) failed") }
        if imagesEncoded > 0 { parts.append("\(imagesEncoded) re-encoded") }
        if resultsSkipped > 0 { parts.append("\(resultsSkipped) result\(resultsSkipped == 1 ? "" : "s") skipped") }
        parts.append("\(pagesWritten) page\(pagesWritten == 1 ? "" : "s") written")
        if pagesUnchanged > 0 { parts.append("\(pagesUnchanged) unchanged") }
        if filesRemoved > 0 { parts.append("\(filesRemoved) old file\(filesRemoved == 1 ? "" : "s") removed") }
        return parts.joined(separator: ", ") + String(format: " in %.1f s", seconds)
    }
}
