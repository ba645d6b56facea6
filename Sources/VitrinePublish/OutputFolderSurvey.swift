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
    let previousGalleries: [OutputManifest.Gallery]
    /// What is at each path the manifest or journal lists inside the folder.
    let entries: [String: RootedFiles.Entry]
    let verified: VerifiedFiles

    package init(root: URL, records: OutputRecordPaths? = nil) async {
        self.root = root.standardizedFileURL
        let read = OutputManifest.readChecked(in: self.root)
        let manifest = try? read.get()
        foundManifest = manifest != nil
        if case .failure(let problem) = read, problem != .missing {
            manifestDamaged = true
            manifestProblem = problem.description
        } else {
            manifestDamaged = false
            manifestProblem = ""
        }
        let journal = OutputJournal.read(in: self.root)
        interrupted = journal != nil
        var files = Dictionary(
            (manifest?.files ?? []).map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        for path in journal?.paths ?? [] where files[path] == nil {
            files[path] = OutputManifest.File(path: path, sha256: "")
        }
        previousFiles = files
        previousGalleries = manifest?.galleries ?? []
        let rootPath = self.root.path
        entries = await OutputWriter.entries(
            of: previousFiles.keys.filter(OutputWriter.isWritable), under: rootPath)
        verified = records.flatMap { VerifiedFiles.read(atPath: $0.verified) } ?? VerifiedFiles()
        TemporaryFileSweeper.sweep(self.root)
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
