import Foundation
import Synchronization
import SystemPackage
import VitrineBasics
import VitrineStore

/// Writes a gallery into its output folder: every file atomically, files whose bytes did not change left alone,
/// only inside the folder and never through a symbolic link, and only over or instead of files that its manifest
/// says Vitrine wrote and that still hold what it wrote.
///
/// Crash consistency: before its first change to the folder a run removes the previous build state (in the cache)
/// and leaves a journal (`.vitrine-journal`) naming the paths it may create; the manifest is rewritten last, then
/// the journal removed. A run that finds a journal knows that the run before it was stopped half-way: it owns the
/// journal's paths as well as the manifest's, and may remove a listed file that no longer matches its record. No
/// record is trusted by size: a file is kept only when its stamp is the one Vitrine verified (in the cache) or its
/// bytes hash to the manifest's SHA-256.
package final class OutputWriter {
    package let root: URL
    let files: RootedFiles
    private(set) var previous: Set<String>
    /// The previous run's record of each file, for skipping renders whose inputs did not change.
    private let previousFiles: [String: OutputManifest.File]
    /// The galleries the previous run's manifest records, or the digest of their encoding.
    private let previousGalleryRecord: OutputFolderSurvey.PreviousGalleries
    /// The SHA-256 of the previous run's manifest file, and whether the cache held a copy of its files.
    let previousManifest: (sha256: String?, copied: Bool)
    /// The manifest `finish` left in place, and the SHA-256 of its bytes.
    var finishedManifest: (manifest: OutputManifest, sha256: String)?
    /// Whether the folder held a manifest of an earlier run.
    package let foundManifest: Bool
    /// Whether the run before this one was stopped after its first change to the folder.
    package let interrupted: Bool
    var written: [String: OutputManifest.File] = [:]
    /// Paths this run may create that no manifest lists yet, which the journal names.
    private var newPaths: [String] = []
    /// Whether the folder holds a journal (this run's, or the interrupted run's) that `finish` must remove.
    private var journalPresent: Bool
    /// Where the cache keeps its records of this folder, if anywhere.
    let records: OutputRecordPaths?
    /// Whether the build state of the previous run is gone, as it must be before the folder changes.
    var stateRemoved = false
    /// What is at each path the previous run wrote or this one plans, as the survey or `begin` found it, taken
    /// all at once over the processor's cores rather than one `stat` at a time; updated as this run writes.
    var found: [String: RootedFiles.Entry]
    /// The files whose bytes are known to hash to a SHA-256 while their stamp is the one recorded with it.
    var verified: VerifiedFiles
    let verifiedAtStart: VerifiedFiles
    /// Listed files that `finish` left in place because they changed since Vitrine wrote them.
    package private(set) var keptChanged: [String] = []

    /// Checks that the folder is Vitrine's to write (empty, missing, holding a manifest, or `force`), and clears
    /// temporary files that an interrupted run left behind. `records` says where the cache keeps its records of
    /// the folder (the build state, removed before the first change, and the verified stamps).
    package convenience init(root: URL, force: Bool = false, records: OutputRecordPaths? = nil) async throws {
        try self.init(survey: await OutputFolderSurvey(root: root, records: records), force: force, records: records)
    }

    /// A writer for the folder `survey` looked at; see ``init(root:force:records:)``.
    package init(survey: OutputFolderSurvey, force: Bool, records: OutputRecordPaths?) throws {
        root = survey.root
        files = RootedFiles(root: survey.root.path)
        self.records = records
        if survey.manifestDamaged && !force {
            throw OutputManifestDamagedError(folder: root.path, reason: survey.manifestProblem)
        }
        previousFiles = survey.previousFiles
        previous = Set(survey.previousFiles.keys)
        previousGalleryRecord = survey.previousGalleries
        previousManifest = (survey.manifestSHA256, survey.filesFromCopy)
        foundManifest = survey.foundManifest
        interrupted = survey.interrupted
        journalPresent = survey.interrupted
        found = survey.entries
        verified = survey.verified
        verifiedAtStart = survey.verified
        if !foundManifest && !interrupted && !force { try Self.refuseForeignEntries(in: root) }
    }

    /// Refuses a folder without a manifest file that holds anything but hidden files and a README, unless `force`:
    /// a check cheap enough to make before a build asks the API anything (the writer checks again, and also refuses
    /// such a folder whose manifest cannot be read).
    package static func refuseForeignFolder(_ root: URL, force: Bool) throws(OutputOwnershipError) {
        guard !force, !OutputManifest.isPresent(in: root), !OutputJournal.isPresent(in: root) else { return }
        try refuseForeignEntries(in: root)
    }

    private static func refuseForeignEntries(in root: URL) throws(OutputOwnershipError) {
        let foreign = foreignEntries(in: root)
        guard foreign.isEmpty else { throw OutputOwnershipError(folder: root.path, foreignFiles: foreign) }
    }

    /// Declares every path this run will write, before writing any: anything there that Vitrine did not write (a
    /// file no manifest lists, a symbolic link, a folder) stops the run, `force` or not (`force` only lets a run
    /// write beside someone else's files, never over them), and so does a symbolic link on the way to a path; the
    /// journal lists the new paths from the first change on, so that a run killed half-way leaves nothing the next
    /// run would not own.
    package func begin(planned paths: [String]) async throws {
        for path in paths { try Self.check(path) }
        let unknown = paths.filter { found[$0] == nil }
        found.merge(await Self.entries(of: unknown, under: files.root)) { surveyed, _ in surveyed }
        var foreign: [String] = []
        for path in paths {
            switch found[path] ?? .missing {
            case .blocked(let folder):
                throw FileWriteError(path: path, linkedFolder: folder, under: files.root)
            case .other:
                foreign.append(path)
            case .file(let stamp):
                if !isOwned(path, stamp: stamp) { foreign.append(path) }
            case .missing:
                break
            }
        }
        if !foreign.isEmpty { throw ForeignFileInTheWayError(folder: root.path, files: foreign.sorted()) }
        newPaths = paths.filter { !previous.contains($0) }
        previous.formUnion(newPaths)
    }

    /// Top-level entries of a folder without a manifest that make it someone else's: anything but hidden files and
    /// a README.
    static func foreignEntries(in folder: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && !$0.uppercased().hasPrefix("README") }.sorted()
    }

    /// The galleries the previous run's manifest records; nil when the survey read its files from the cache's copy
    /// and so has only their digest (a frozen build asks the survey for them: `needsGalleries`).
    package var previousGalleries: [OutputManifest.Gallery]? {
        if case .decoded(let galleries) = previousGalleryRecord { galleries } else { nil }
    }

    /// Every path written or kept so far in this run.
    package var writtenPaths: [String] { written.keys.sorted() }

    /// The previous run's record of a file, if it wrote one there.
    func previousRecord(of relativePath: String) -> OutputManifest.File? { previousFiles[relativePath] }

    /// Keeps the file the previous run wrote at `relativePath` from the same `inputs`, if it still holds the bytes
    /// the manifest records; returns whether it did (otherwise the caller renders and writes it).
    package func keep(_ relativePath: String, inputs: String) -> Bool {
        guard let record = previousFiles[relativePath], record.inputs == inputs, !record.sha256.isEmpty,
            isIntact(relativePath, sha256: record.sha256, size: record.size)
        else { return false }
        written[relativePath] = record
        return true
    }

    /// Whether the previous run wrote `relativePath` from other inputs than `inputs`, or did not write it: such a
    /// file is made again whatever is in place.
    package func inputsChanged(_ relativePath: String, inputs: String) -> Bool {
        previousFiles[relativePath]?.inputs != inputs
    }

    /// Whether the regular file at `relativePath` holds bytes with the SHA-256 `sha256` (and `size`, if given):
    /// known without reading it while its stamp is the one verified with that digest, else read and hashed.
    func isIntact(_ relativePath: String, sha256: String, size: Int?) -> Bool {
        guard case .file(let stamp) = entry(of: relativePath) else { return false }
        return isIntact(relativePath, stamp: stamp, sha256: sha256, size: size)
    }

    /// ``isIntact(_:sha256:size:)`` for the file at `relativePath` that has `stamp` as this run found it.
    func isIntact(_ relativePath: String, stamp: FileStamp, sha256: String, size: Int?) -> Bool {
        if let size, stamp.size != Int64(size) { return false }
        if verified.vouch(for: relativePath, stamp: stamp, sha256: sha256) { return true }
        guard let read = files.stampedContents(relativePath, limit: Self.largestVerifiedFile),
            SHA256Hasher.hex(of: read.bytes) == sha256
        else { return false }
        verified[relativePath] = .init(sha256: sha256, stamp: read.stamp)
        found[relativePath] = .file(read.stamp)
        return true
    }

    /// The largest file whose bytes are read to verify it (an image is at most the image size limit, 40 MiB by
    /// default).
    package static let largestVerifiedFile = 1 << 30

    /// What the survey or `begin` found at a path, else what is there now (remembered as found).
    private func entry(of relativePath: String) -> RootedFiles.Entry {
        if let known = found[relativePath] { return known }
        let entry = files.entry(relativePath)
        found[relativePath] = entry
        return entry
    }

    /// What is at `paths` under `root`, split over the processor's cores when there are thousands.
    static func entries(of paths: [String], under root: String) async -> [String: RootedFiles.Entry] {
        let parts = await CoreSplit.mapParts(of: paths.count, threshold: 1024) { part in
            let files = RootedFiles(root: root)
            var found: [String: RootedFiles.Entry] = [:]
            for path in paths[part] {
                found[path] = files.entry(path)
            }
            return found
        }
        return parts.reduce(into: [:]) { entries, part in entries.merge(part) { first, _ in first } }
    }

    /// Writes `bytes` at `relativePath` unless the file already holds exactly them; returns whether it wrote.
    /// `inputs` is the digest of what the bytes were made from, recorded for `keep(_:inputs:)`.
    @discardableResult
    package func write(_ bytes: [UInt8], to relativePath: String, inputs: String? = nil) throws -> Bool {
        try Self.check(relativePath)
        let sha256 = SHA256Hasher.hex(of: bytes)
        written[relativePath] = OutputManifest.File(
            path: relativePath, sha256: sha256, size: bytes.count, inputs: inputs)
        let needed = try needsWriting(relativePath) { stamp in
            if let known = verified[relativePath], known.stamp == stamp { return known.sha256 == sha256 }
            guard let read = files.stampedContents(relativePath, limit: bytes.count), read.bytes == bytes else {
                return false
            }
            verified[relativePath] = .init(sha256: sha256, stamp: read.stamp)
            return true
        }
        guard needed else { return false }
        let stamp = try files.write(bytes, to: relativePath)
        found[relativePath] = .file(stamp)
        verified[relativePath] = .init(sha256: sha256, stamp: stamp)
        return true
    }

    /// Whether `relativePath` must be written, given what is there: not when `holdsIt` says the file there already
    /// is the one wanted. What is there must be Vitrine's to replace (or `force`), and no link may be on the way;
    /// before a write, the folder is marked as changing.
    func needsWriting(_ relativePath: String, holdsIt: (FileStamp) -> Bool) throws -> Bool {
        switch entry(of: relativePath) {
        case .file(let stamp):
            if holdsIt(stamp) { return false }
            try claim(relativePath)
        case .other:
            try claim(relativePath)
        case .blocked(let folder):
            throw FileWriteError(path: relativePath, linkedFolder: folder, under: files.root)
        case .missing:
            break
        }
        try willChange()
        return true
    }

    /// Removes what the previous run wrote and this one did not (a file that changed since Vitrine wrote it stays,
    /// listed in ``keptChanged``), then records this run's files and galleries and removes the journal; returns
    /// the paths removed.
    @discardableResult
    package func finish(galleries: [OutputManifest.Gallery] = []) throws -> [String] {
        var removed: [String] = []
        // Files of the previous run that are gone already (a run killed half-way through removing them): their
        // folders go too once empty, as they would have.
        var gone: [String] = []
        for path in previous.subtracting(written.keys).sorted() {
            guard Self.isWritable(path) else { continue }
            let found = entry(of: path)
            guard case .file = found else {
                if found == .missing { gone.append(path) }
                continue
            }
            let record = previousFiles[path]
            let owned =
                record == nil || record!.sha256.isEmpty || interrupted
                || isIntact(path, sha256: record!.sha256, size: record!.size)
            guard owned else {
                keptChanged.append(path)
                continue
            }
            try willChange()
            if files.remove(path) { removed.append(path) }
        }
        removeEmptiedFolders(of: removed + gone)
        // A run that kept every file as it was, for the same galleries, leaves the manifest as it was too.
        let manifest = OutputManifest(files: Array(written.values), galleries: galleries)
        if removed.isEmpty && !journalPresent && written == previousFiles
            && previousGalleryRecord.equal(manifest.galleries)
        {
            finishedManifest = previousManifest.sha256.map { (manifest, $0) }
            return removed
        }
        try removeState()
        var hash = SHA256Hasher()
        try files.write(to: OutputManifest.fileName, durable: true) { sink in
            try manifest.encode { piece in
                hash.update(piece)
                try sink(piece)
            }
        }
        finishedManifest = (manifest, hash.finalize().hexString)
        if journalPresent {
            files.remove(OutputJournal.fileName)
            files.syncRoot()
            journalPresent = false
        }
        return removed
    }

    /// Before the first change to the folder: removes the previous run's build state, so that a run killed
    /// half-way never leaves one that describes files it replaced, and writes the journal of the paths this run
    /// may create.
    private func willChange() throws {
        try removeState()
        guard !journalPresent else { return }
        try files.write(OutputJournal(paths: newPaths).encoded(), to: OutputJournal.fileName, durable: true)
        journalPresent = true
    }

    func removeState() throws {
        guard !stateRemoved, let records else { return }
        stateRemoved = true
        do {
            try SystemCall.removeFile(records.state)
        } catch {
            throw FileWriteError(path: records.state, reason: error.description)
        }
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
            files.removeFolderIfEmpty(folder)
        }
    }

    /// An existing file may be replaced only if Vitrine wrote it, `force` or not.
    private func claim(_ relativePath: String) throws(ForeignFileInTheWayError) {
        guard case .file(let stamp) = entry(of: relativePath), isOwned(relativePath, stamp: stamp) else {
            throw ForeignFileInTheWayError(folder: root.path, files: [relativePath])
        }
    }

    /// Whether the file at `relativePath`, with `stamp`, is Vitrine's: the manifest or an interrupted run's journal
    /// lists it, or the cache recorded this very stamp when Vitrine wrote it (what lets a forced rebuild of a folder
    /// whose manifest is damaged replace its own files, and only those).
    private func isOwned(_ relativePath: String, stamp: FileStamp) -> Bool {
        previous.contains(relativePath) || verifiedAtStart[relativePath]?.stamp == stamp
    }

    /// Refuses a path that would leave the output folder or name one of Vitrine's own records.
    static func check(_ relativePath: String) throws(FileWriteError) {
        guard isWritable(relativePath) else {
            throw FileWriteError(path: relativePath, reason: "the path leaves the output folder")
        }
    }

    /// Whether `relativePath` names a file inside the output folder other than the manifest and the journal.
    /// Checked in one pass over the bytes, without splitting the path: every build asks it of every file the
    /// manifest lists and of every file it writes.
    static func isWritable(_ relativePath: String) -> Bool {
        guard relativePath != OutputManifest.fileName, relativePath != OutputJournal.fileName else { return false }
        // The current part's length, and whether it is dots only ("." and ".." are refused, "..." is a name).
        var length = 0
        var dotsOnly = true
        func partIsName() -> Bool { length > 0 && !(dotsOnly && length <= 2) }
        for byte in relativePath.utf8 {
            if byte == UInt8(ascii: "/") {
                guard partIsName() else { return false }
                length = 0
                dotsOnly = true
            } else {
                length += 1
                if byte != UInt8(ascii: ".") { dotsOnly = false }
            }
        }
        return partIsName()
    }
}

@available(*, unavailable)
extension OutputWriter: Sendable {}
