import Foundation
import VitrineBasics
import VitrineStore

/// What an output folder holds before a build writes to it: the previous run's manifest and journal, what is at
/// each path they list, and the stamps the cache verified, with the temporary files of a killed run cleared. It is
/// taken apart from the writer so that a build can take it while it waits for the API.
package struct OutputFolderSurvey: Sendable {
    package let root: URL
    let foundManifest: Bool
    /// A manifest file is there but cannot be read as one.
    let manifestDamaged: Bool
    let manifestProblem: String
    /// The run before this one left its journal: it was stopped after its first change.
    package let interrupted: Bool
    package let previousFiles: [String: OutputManifest.File]
    let previousGalleries: PreviousGalleries
    /// The SHA-256 of the manifest file's bytes, when there is one.
    let manifestSHA256: String?
    /// Whether the files came from the cache's copy of the manifest (`ManifestCopy`) rather than from decoding it.
    let filesFromCopy: Bool
    /// What is at each path the manifest or journal lists inside the folder.
    let entries: [String: RootedFiles.Entry]
    let verified: VerifiedFiles

    /// The galleries the previous manifest records: decoded, or only the digest of their encoding when its files
    /// came from the cache's copy.
    enum PreviousGalleries: Equatable {
        case decoded([OutputManifest.Gallery])
        case digest(String)

        /// Whether they are `galleries`.
        func equal(_ galleries: [OutputManifest.Gallery]) -> Bool {
            switch self {
            case .decoded(let previous): previous == galleries
            case .digest(let digest): OutputManifest.galleriesDigest(galleries) == digest
            }
        }
    }

    /// Surveys the folder at `root`; `records` says where the cache keeps its records of the folder. The manifest's
    /// files are read from the cache's copy when it is a copy of this very manifest, unless `needsGalleries` (a
    /// frozen build compares them) asks for the manifest decoded.
    package init(root: URL, records: OutputRecordPaths? = nil, needsGalleries: Bool = false) async {
        self.root = root.standardizedFileURL
        let copy = needsGalleries ? nil : records?.manifestCopy.flatMap(ManifestCopy.read(atPath:))
        let read = OutputManifest.readChecked(in: self.root, copy: copy)
        let manifest = try? read.get()
        foundManifest = manifest != nil
        if case .failure(let problem) = read, problem != .missing {
            manifestDamaged = true
            manifestProblem = problem.description
        } else {
            manifestDamaged = false
            manifestProblem = ""
        }
        manifestSHA256 = manifest?.sha256
        filesFromCopy = manifest != nil && manifest?.galleries == nil
        let journal = OutputJournal.read(in: self.root)
        interrupted = journal != nil
        var files = Dictionary(
            (manifest?.files ?? []).map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        for path in journal?.paths ?? [] where files[path] == nil {
            files[path] = OutputManifest.File(path: path, sha256: "")
        }
        previousFiles = files
        previousGalleries =
            if let copy, filesFromCopy { .digest(copy.galleriesDigest) } else { .decoded(manifest?.galleries ?? []) }
        let rootPath = self.root.path
        entries = await OutputWriter.entries(
            of: previousFiles.keys.filter(OutputWriter.isWritable), under: rootPath)
        verified = records.flatMap { VerifiedFiles.read(atPath: $0.verified) } ?? VerifiedFiles()
        TemporaryFileSweeper.sweep(self.root)
    }

    /// Whether the file at `relativePath` is one the previous run wrote and holds `size` bytes with the SHA-256
    /// `sha256`, as its stamp tells without reading it: a build that puts those bytes there keeps the file
    /// (`OutputWriter.placeImages`) and reads nothing to put them there.
    package func holdsIntact(_ relativePath: String, sha256: String, size: Int) -> Bool {
        guard previousFiles[relativePath] != nil, case .file(let stamp) = entries[relativePath] else { return false }
        return stamp.size == Int64(size) && verified.vouch(for: relativePath, stamp: stamp, sha256: sha256)
    }
}

/// One image for ``OutputWriter/placeImages(_:meanwhile:)``: the cached file to copy, the SHA-256 its bytes must
/// have, and where in the output it goes.
package struct ImagePlacement: Sendable {
    /// The cached file's path.
    package var source: String
    package var sha256: String
    package var byteCount: Int
    /// The stamp the cached file had when its bytes were last hashed, which spares hashing them again.
    package var cachedStamp: FileStamp?
    /// The addresses it was downloaded from, for the manifest.
    package var urls: [String]?
    package var path: String

    package init(
        source: String, sha256: String, byteCount: Int, cachedStamp: FileStamp?, urls: [String]?, path: String
    ) {
        self.source = source
        self.sha256 = sha256
        self.byteCount = byteCount
        self.cachedStamp = cachedStamp
        self.urls = urls
        self.path = path
    }
}
