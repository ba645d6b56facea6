import Foundation
import Synchronization

/// Writes a gallery into its output folder: every file atomically, files whose bytes did not change left alone,
/// only inside the folder, and only over or instead of files that its manifest says Vitrine wrote.
public final class OutputWriter {
    public let root: URL
    /// `root` as a path ending in "/", to which relative paths are appended.
    private let rootPath: String
    private let force: Bool
    private var previous: Set<String>
    /// The previous run's record of each file, for skipping renders whose inputs did not change.
    private let previousFiles: [String: OutputManifest.File]
    /// The galleries the previous run's manifest records.
    public let previousGalleries: [OutputManifest.Gallery]
    /// Whether the folder held a manifest of an earlier run.
    public let foundManifest: Bool
    private var written: [String: OutputManifest.File] = [:]
    /// Whether `begin` rewrote the manifest with this run's new paths.
    private var wroteIntent = false
    /// Where the ``BuildState`` describing this folder is kept, if anywhere.
    private let statePath: String?
    /// Whether the build state of the previous run is gone, as it must be before the folder changes.
    private var stateRemoved = false
    /// The stamp of each file the previous run wrote or this one plans, as the survey or `begin` found it (nil: none
    /// there), taken all at once over the processor's cores rather than one `stat` at a time as pages and images are
    /// published. A file this run writes is dropped from it; for the others, the build state records these stamps
    /// without a second `stat`.
    private var found: [String: FileStamp?]

    /// Checks that the folder is Vitrine's to write (empty, missing, holding a manifest, or `force`), and clears
    /// temporary files that an interrupted run left behind. `statePath` is where the build state describing the
    /// folder is kept (in the cache), removed before the first change.
    public convenience init(root: URL, force: Bool = false, statePath: String? = nil) throws(OutputOwnershipError) {
        try self.init(survey: OutputFolderSurvey(root: root), force: force, statePath: statePath)
    }

    /// A writer for the folder `survey` looked at; see ``init(root:force:statePath:)``.
    init(survey: OutputFolderSurvey, force: Bool, statePath: String?) throws(OutputOwnershipError) {
        root = survey.root
        self.statePath = statePath
        rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
        self.force = force
        previous = Set(survey.previousFiles.keys)
        previousFiles = survey.previousFiles
        previousGalleries = survey.previousGalleries
        foundManifest = survey.foundManifest
        found = survey.stamps
        if !foundManifest && !force { try Self.refuseForeignEntries(in: root) }
    }

    /// Refuses a folder without a manifest file that holds anything but hidden files and a README, unless `force`:
    /// a check cheap enough to make before a build asks the API anything (the writer checks again, and also refuses
    /// such a folder whose manifest cannot be read).
    static func refuseForeignFolder(_ root: URL, force: Bool) throws(OutputOwnershipError) {
        guard !force, !OutputManifest.isPresent(in: root) else { return }
        try refuseForeignEntries(in: root)
    }

    private static func refuseForeignEntries(in root: URL) throws(OutputOwnershipError) {
        let foreign = foreignEntries(in: root)
        guard foreign.isEmpty else { throw OutputOwnershipError(folder: root.path, foreignFiles: foreign) }
    }

    /// Declares every path this run will write, before writing any: an existing file there that Vitrine did not
    /// write stops the run (unless `force`), and the manifest lists the paths from now on, so that a run killed
    /// half-way leaves nothing the next run would not own.
    public func begin(planned paths: [String]) throws {
        for path in paths { _ = try destination(path) }
        found.merge(Self.stamps(of: paths.filter { found[$0] == nil }, under: rootPath)) { surveyed, _ in surveyed }
        var foreign: [String] = []
        var new: [String] = []
        for path in paths where !previous.contains(path) {
            new.append(path)
            if access(try destination(path), F_OK) == 0 { foreign.append(path) }
        }
        if !foreign.isEmpty && !force { throw OutputOwnershipError(folder: root.path, foreignFiles: foreign.sorted()) }
        // A run that writes only paths the manifest lists already has nothing new to declare.
        guard !new.isEmpty else { return }
        wroteIntent = true
        willChange()
        let intent = Array(previousFiles.values) + new.map { OutputManifest.File(path: $0, sha256: "") }
        try AtomicFile.write(
            OutputManifest(files: intent, galleries: previousGalleries).encoded(),
            to: root.appendingPathComponent(OutputManifest.fileName), durable: true)
        previous.formUnion(new)
    }

    /// Top-level entries of a folder without a manifest that make it someone else's: anything but hidden files and
    /// a README.
    static func foreignEntries(in folder: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && !$0.uppercased().hasPrefix("README") }.sorted()
    }

    /// Every path written or kept so far in this run.
    public var writtenPaths: [String] { written.keys.sorted() }

    /// The previous run's record of a file, if it wrote one there.
    public func previousRecord(of relativePath: String) -> OutputManifest.File? { previousFiles[relativePath] }

    /// Keeps the file the previous run wrote at `relativePath` from the same `inputs`, if it is still there at
    /// its recorded size; returns whether it did (otherwise the caller renders and writes it).
    public func keep(_ relativePath: String, inputs: String) -> Bool {
        guard let record = previousFiles[relativePath], record.inputs == inputs, !record.sha256.isEmpty,
            let size = record.size, Self.isWritable(relativePath), let stamp = stamp(of: relativePath),
            stamp.size == size
        else { return false }
        written[relativePath] = record
        return true
    }

    /// The stamp the survey or `begin` found for a path, else the file's stamp now (remembered as found).
    private func stamp(of relativePath: String) -> FileStamp? {
        if let known = found[relativePath] { return known }
        let stamp = (try? destination(relativePath)).flatMap(FileStamp.of)
        found[relativePath] = .some(stamp)
        return stamp
    }

    /// The stamps of `paths` under `root`, split over the processor's cores when there are thousands.
    fileprivate static func stamps(of paths: [String], under root: String) -> [String: FileStamp?] {
        let stamps = Mutex<[String: FileStamp?]>([:])
        CoreSplit.forEachPart(of: paths.count, threshold: 1024) { part in
            let files = RootedFiles(root: root)
            var found: [String: FileStamp?] = [:]
            for path in paths[part] {
                found[path] = .some(files.stamp(path))
            }
            stamps.withLock { $0.merge(found) { first, _ in first } }
        }
        return stamps.withLock { $0 }
    }

    /// Writes `bytes` at `relativePath` unless the file already holds exactly them; returns whether it wrote.
    /// `inputs` is the digest of what the bytes were made from, recorded for `keep(_:inputs:)`.
    @discardableResult
    public func write(_ bytes: [UInt8], to relativePath: String, inputs: String? = nil) throws -> Bool {
        let path = try destination(relativePath)
        written[relativePath] = OutputManifest.File(
            path: relativePath, sha256: SHA256.hex(of: bytes), size: bytes.count, inputs: inputs)
        if let existing = FileManager.default.contents(atPath: path) {
            if existing.elementsEqual(bytes) { return false }
            try claim(relativePath)
        }
        willChange()
        found[relativePath] = nil
        try AtomicFile.write(bytes, to: URL(fileURLWithPath: path))
        return true
    }

    /// Places an image from the cache at `relativePath`, named by content, so an existing file of the same size
    /// already holds it; returns whether it wrote.
    @discardableResult
    public func placeImage(
        from source: @autoclosure () -> URL, sha256: String, byteCount: Int, at relativePath: String
    ) throws -> Bool {
        let path = try destination(relativePath)
        written[relativePath] = OutputManifest.File(path: relativePath, sha256: sha256, size: byteCount)
        if let stamp = stamp(of: relativePath) {
            if stamp.size == byteCount && previous.contains(relativePath) { return false }
            try claim(relativePath)
        }
        willChange()
        found[relativePath] = nil
        try AtomicFile.place(copyOf: source(), at: URL(fileURLWithPath: path))
        return true
    }

    /// Removes what the previous run wrote and this one did not, then records this run's files and galleries;
    /// returns the paths removed.
    @discardableResult
    public func finish(galleries: [OutputManifest.Gallery] = []) throws -> [String] {
        var removed: [String] = []
        for path in previous.subtracting(written.keys).sorted() {
            guard let file = try? destination(path) else { continue }
            willChange()
            if unlink(file) == 0 { removed.append(path) }
        }
        removeEmptiedFolders(of: removed)
        // A run that kept every file as it was, for the same galleries, leaves the manifest as it was too.
        let manifest = OutputManifest(files: Array(written.values), galleries: galleries)
        if removed.isEmpty && !wroteIntent && written == previousFiles && manifest.galleries == previousGalleries {
            return removed
        }
        willChange()
        try AtomicFile.write(
            manifest.encoded(), to: root.appendingPathComponent(OutputManifest.fileName), durable: true)
        return removed
    }

    /// After `finish`, leaves a ``BuildState`` for the next build: the files this run wrote or kept and the manifest
    /// as they now are, with what the build read (`fingerprint`, `responses`) and reported (`summary`). Without a
    /// usable record (`responses` nil: not every answer came from the cache as it now is), the folder keeps none.
    /// The state's temporary file goes in `temporaryFolder` (the cache's).
    func recordState(
        fingerprint: String, summary: BuildSummary, responses: [BuildState.Response]?, temporaryFolder: URL
    ) {
        guard let statePath else { return }
        var files: [BuildState.File] = []
        let stamper = RootedFiles(root: rootPath)
        for path in writtenPaths + [OutputManifest.fileName] {
            guard let stamp = found[path].flatMap({ $0 }) ?? stamper.stamp(path) else {
                return willChange()
            }
            files.append(BuildState.File(path: path, stamp: stamp))
        }
        guard let responses,
            let bytes = BuildState(fingerprint: fingerprint, summary: summary, responses: responses, files: files)
                .encoded()
        else { return willChange() }
        if !stateRemoved, FileManager.default.contents(atPath: statePath).map({ [UInt8]($0) == bytes }) == true {
            return
        }
        stateRemoved = false
        if (try? AtomicFile.write(
            bytes, to: URL(fileURLWithPath: statePath), temporaryFolder: temporaryFolder)) == nil
        {
            unlink(statePath)
        }
    }

    /// Removes the previous run's build state before the first change to the folder, so that a run killed
    /// half-way never leaves a state that describes files it replaced.
    private func willChange() {
        guard !stateRemoved, let statePath else { return }
        stateRemoved = true
        unlink(statePath)
    }

    /// Removes the folders that removing `paths` left empty (a dropped gallery's `items/`), deepest first; a
    /// folder that still holds anything stays.
    private func removeEmptiedFolders(of paths: [String]) {
        var folders = Set<String>()
        for path in paths {
            var parts = path.split(separator: "/").dropLast()
            while !parts.isEmpty {
                folders.insert(parts.joined(separator: "/"))
                parts = parts.dropLast()
            }
        }
        for folder in folders.sorted(by: { $0.count > $1.count }) {
            rmdir(root.appendingPathComponent(folder).path)
        }
    }

    /// An existing file may be replaced only if Vitrine wrote it, or with `force`.
    private func claim(_ relativePath: String) throws(OutputOwnershipError) {
        guard force || previous.contains(relativePath) else {
            throw OutputOwnershipError(folder: root.path, foreignFiles: [relativePath])
        }
    }

    /// The absolute path of `relativePath`, which must stay inside the output folder.
    private func destination(_ relativePath: String) throws(FileWriteError) -> String {
        guard Self.isWritable(relativePath) else {
            throw FileWriteError(path: relativePath, reason: "the path leaves the output folder")
        }
        return rootPath + relativePath
    }

    /// Whether `relativePath` names a file inside the output folder other than the manifest.
    fileprivate static func isWritable(_ relativePath: String) -> Bool {
        let parts = relativePath.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        return relativePath.utf8.first != UInt8(ascii: "/") && !parts.isEmpty
            && parts.allSatisfy({ !$0.isEmpty && !$0.elementsEqual(".".utf8) && !$0.elementsEqual("..".utf8) })
            && relativePath != OutputManifest.fileName
    }
}

@available(*, unavailable)
extension OutputWriter: Sendable {}

/// What an output folder holds before a build writes to it: the previous run's manifest and the stamps of the files
/// it lists, with the temporary files of a killed run cleared. It is taken apart from the writer so that a build can
/// take it while it waits for the API.
struct OutputFolderSurvey: Sendable {
    let root: URL
    let foundManifest: Bool
    let previousFiles: [String: OutputManifest.File]
    let previousGalleries: [OutputManifest.Gallery]
    /// The stamp of each file the manifest lists inside the folder (nil: none there).
    let stamps: [String: FileStamp?]

    init(root: URL) {
        self.root = root.standardizedFileURL
        let manifest = OutputManifest.read(in: self.root)
        foundManifest = manifest != nil
        previousFiles = Dictionary(
            (manifest?.files ?? []).map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        previousGalleries = manifest?.galleries ?? []
        let rootPath = self.root.path.hasSuffix("/") ? self.root.path : self.root.path + "/"
        stamps = OutputWriter.stamps(of: previousFiles.keys.filter(OutputWriter.isWritable), under: rootPath)
        TemporaryFileSweeper.sweep(self.root)
    }
}
