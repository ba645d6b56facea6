import Foundation
import VitrineBasics
import VitrineModel
import VitrineSources

/// The record, kept in the output folder, of what Vitrine built there: each gallery's query, source, items and
/// attribution, and every file it wrote with its SHA-256. Only files it lists are ever overwritten or deleted by a
/// later run; a frozen rebuild (from the cache alone) is checked against it.
package struct OutputManifest: Codable, Sendable, Equatable {
    package static let fileName = ".vitrine-manifest.json"

    /// One written file: the SHA-256 of its bytes, its size, the digest of what it was made from (the page's
    /// model inputs and the templates), which lets a rebuild skip rendering it, and for an image the URLs it was
    /// downloaded from, which let a rebuild keep it when the cache lacks it and the network fails.
    package struct File: Codable, Sendable, Hashable {
        package var path: String
        package var sha256: String
        package var size: Int?
        package var inputs: String?
        package var urls: [String]?

        package init(path: String, sha256: String, size: Int? = nil, inputs: String? = nil, urls: [String]? = nil) {
            self.path = path
            self.sha256 = sha256
            self.size = size
            self.inputs = inputs
            self.urls = urls
        }
    }

    /// What one gallery was built from and shows.
    package struct Gallery: Codable, Sendable, Hashable {
        /// Its folder under the output root ("" for a gallery built on its own).
        package var path: String
        package var title: String
        package var source: String
        package var sourceLabel: String
        /// The searches, one per variant (empty for sources without a query).
        package var queries: [String]
        package var items: [Item]

        package init(
            path: String, title: String, source: String, sourceLabel: String, queries: [String], items: [Item]
        ) {
            self.path = path
            self.title = title
            self.source = source
            self.sourceLabel = sourceLabel
            self.queries = queries
            self.items = items
        }
    }

    /// One item: the API's id and who to credit for each variant's image.
    package struct Item: Codable, Sendable, Hashable {
        package var id: String
        package var credits: [Credit]

        package init(id: String, credits: [Credit]) {
            self.id = id
            self.credits = credits
        }
    }

    /// Attribution of one variant's image.
    package struct Credit: Codable, Sendable, Hashable {
        package var variant: String
        package var name: String
        package var url: String?

        package init(variant: String, name: String, url: String?) {
            self.variant = variant
            self.name = name
            self.url = url
        }
    }

    package var generator: String
    package var galleries: [Gallery]
    package var files: [File]

    package init(files: [File], galleries: [Gallery] = []) {
        generator = "Vitrine \(VitrineVersion.current)"
        self.galleries = galleries.sorted { $0.path < $1.path }
        self.files = files.sorted { $0.path < $1.path }
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        generator = try container.decode(String.self, forKey: .generator)
        galleries = try container.decodeIfPresent([Gallery].self, forKey: .galleries) ?? []
        files = try container.decode([File].self, forKey: .files)
    }

    /// The manifest as its file holds it: the bytes `JSONEncoder` gives with pretty printing, sorted keys and
    /// unescaped slashes (the same manifest always has the same bytes), written directly by ``PrettyJSONWriter``
    /// in a third of `JSONEncoder`'s time: every build that changes the folder writes it, after its last page.
    func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        encode { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// The bytes of ``encoded()``, handed to `sink` a piece of about `piece` bytes at a time, so that the manifest
    /// of a large gallery (megabytes: BENCHMARKS.md, "Figures behind the code") is never in memory whole.
    func encode(piece: Int = 1 << 16, to sink: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var json = PrettyJSONWriter(reservingCapacity: piece + 4096)
        func flushIfFull(_ json: inout PrettyJSONWriter) throws {
            if json.bytes.count >= piece { try json.flush(into: sink) }
        }
        json.beginObject()
        json.key("files")
        json.beginArray()
        for file in files {
            json.beginObject()
            if let inputs = file.inputs {
                json.key("inputs")
                json.string(inputs)
            }
            json.key("path")
            json.string(file.path)
            json.key("sha256")
            json.string(file.sha256)
            if let size = file.size {
                json.key("size")
                json.integer(size)
            }
            if let urls = file.urls {
                json.key("urls")
                json.beginArray()
                for url in urls { json.string(url) }
                json.endArray()
            }
            json.endObject()
            try flushIfFull(&json)
        }
        json.endArray()
        json.key("galleries")
        try Self.encode(galleries, into: &json, flushIfFull: flushIfFull)
        json.key("generator")
        json.string(generator)
        json.endObject()
        json.newline()
        try json.flush(into: sink)
    }

    /// The galleries' array as ``encode(piece:to:)`` writes it into the manifest.
    private static func encode(
        _ galleries: [Gallery], into json: inout PrettyJSONWriter, flushIfFull: (inout PrettyJSONWriter) throws -> Void
    ) rethrows {
        json.beginArray()
        for gallery in galleries {
            json.beginObject()
            json.key("items")
            json.beginArray()
            for item in gallery.items {
                json.beginObject()
                json.key("credits")
                json.beginArray()
                for credit in item.credits {
                    json.beginObject()
                    json.key("name")
                    json.string(credit.name)
                    if let url = credit.url {
                        json.key("url")
                        json.string(url)
                    }
                    json.key("variant")
                    json.string(credit.variant)
                    json.endObject()
                }
                json.endArray()
                json.key("id")
                json.string(item.id)
                json.endObject()
                try flushIfFull(&json)
            }
            json.endArray()
            json.key("path")
            json.string(gallery.path)
            json.key("queries")
            json.beginArray()
            for query in gallery.queries { json.string(query) }
            json.endArray()
            for (key, value) in [
                ("source", gallery.source), ("sourceLabel", gallery.sourceLabel), ("title", gallery.title),
            ] {
                json.key(key)
                json.string(value)
            }
            json.endObject()
        }
        json.endArray()
    }

    /// The SHA-256 of the galleries' encoding in the manifest: what a rebuild compares them by when it read the
    /// manifest's files from the cache's copy (`ManifestCopy`) rather than decoding it.
    static func galleriesDigest(_ galleries: [Gallery]) -> String {
        var json = PrettyJSONWriter(reservingCapacity: 1 << 16)
        var hash = SHA256Hasher()
        encode(galleries.sorted { $0.path < $1.path }, into: &json) { json in
            if json.bytes.count >= 1 << 16 { json.flush { hash.update($0) } }
        }
        json.flush { hash.update($0) }
        return hash.finalize().hexString
    }

    /// Whether `root` holds a manifest file, read or not.
    package static func isPresent(in root: URL) -> Bool {
        access(root.appendingPathComponent(fileName).path, F_OK) == 0
    }

    package static func read(in root: URL) -> OutputManifest? { try? readChecked(in: root).get() }

    /// Why a manifest could not be read.
    enum ReadProblem: Error, Equatable, CustomStringConvertible {
        case missing
        case unreadable(String)
        case notJSON
        /// Which value is not what a manifest holds (“files[3].sha256” is missing).
        case wrongShape(DecodingProblem)

        var description: String {
            switch self {
            case .missing: "there is none"
            case .unreadable(let reason): "it cannot be read (\(reason))"
            case .notJSON: "it is not complete JSON"
            case .wrongShape(let problem): "it does not have a manifest's fields (\(problem.summary))"
            }
        }
    }

    /// The manifest in `root`, or why there is none to use; a symbolic link in its place is not followed.
    static func readChecked(in root: URL) -> Result<OutputManifest, ReadProblem> {
        bytes(in: root).flatMap(decode)
    }

    /// A manifest as a build reads it: its files, its galleries unless they came from the cache's copy, and the
    /// SHA-256 of its bytes.
    struct Read {
        var files: [File]
        var galleries: [Gallery]?
        var sha256: String
    }

    /// Reads the manifest in `root`, its files from `copy` when that is a copy of these very bytes.
    static func readChecked(in root: URL, copy: ManifestCopy?) -> Result<Read, ReadProblem> {
        bytes(in: root).flatMap { bytes in
            let sha256 = SHA256Hasher.hex(of: bytes)
            if let copy, copy.manifestSHA256 == sha256 {
                return .success(Read(files: copy.files, galleries: nil, sha256: sha256))
            }
            return decode(bytes).map { Read(files: $0.files, galleries: $0.galleries, sha256: sha256) }
        }
    }

    private static func bytes(in root: URL) -> Result<[UInt8], ReadProblem> {
        do {
            return .success(try RootedFiles(root: root.path).read(fileName, limit: FileBytes.recordLimit).bytes)
        } catch .missing, .blocked {
            return .failure(.missing)
        } catch {
            return .failure(.unreadable(error.description))
        }
    }

    private static func decode(_ bytes: [UInt8]) -> Result<OutputManifest, ReadProblem> {
        do {
            return .success(try JSONDecoder().decode(OutputManifest.self, from: Data(bytes)))
        } catch {
            let problem = DecodingProblem(error)
            return .failure(problem.isInvalidJSON ? .notJSON : .wrongShape(problem))
        }
    }
}

/// The output folder's manifest is there but damaged, so Vitrine cannot tell which files it wrote.
public struct OutputManifestDamagedError: UserFacingError {
    /// The output folder whose manifest is damaged.
    public let folder: String
    /// What is wrong with the manifest.
    public let reason: String

    package init(folder: String, reason: String) {
        self.folder = folder
        self.reason = reason
    }

    /// Names the folder and the damage, and says a forced build would start over (leaving others' files alone).
    public var sentence: String {
        "The manifest of \(folder) (\(OutputManifest.fileName)) is damaged: \(reason); Vitrine cannot tell which "
            + "files there are its own, so rebuild it forced (files it did not write are left alone)."
    }

    /// Always `.cannotWrite`.
    public var kind: FailureKind { .cannotWrite }
}

/// A cached image no longer had the bytes it is known by while it was copied into the output.
package struct CachedImageChangedError: UserFacingError {
    package let path: String

    package init(path: String) {
        self.path = path
    }

    package var sentence: String {
        "The cached image \(path) changed while it was copied into the output; run again to download it anew."
    }

    package var kind: FailureKind { .cannotWrite }
}

/// The output folder holds files Vitrine did not write, and it was not told to write there anyway.
public struct OutputOwnershipError: UserFacingError {
    /// The output folder that was not written.
    public let folder: String
    /// The files in it that Vitrine did not write.
    public let foreignFiles: [String]

    package init(folder: String, foreignFiles: [String]) {
        self.folder = folder
        self.foreignFiles = foreignFiles
    }

    /// Names the folder and the first few files, and the two ways on: a forced build or another folder.
    public var sentence: String {
        let shown = foreignFiles.prefix(3).joined(separator: ", ") + (foreignFiles.count > 3 ? ", …" : "")
        return "Refusing to write into \(folder): it holds files Vitrine did not write (\(shown)); "
            + "force the build to write beside them (it never replaces them), or choose another output folder."
    }

    /// Always `.cannotWrite`.
    public var kind: FailureKind { .cannotWrite }
}

/// A path the build would write holds a file (or a link, or a folder) that Vitrine did not write: it never replaces
/// one, forced or not, so the run stops before it changes anything.
public struct ForeignFileInTheWayError: UserFacingError {
    /// The output folder that was not written.
    public let folder: String
    /// The paths in the way, relative to `folder`.
    public let files: [String]

    package init(folder: String, files: [String]) {
        self.folder = folder
        self.files = files
    }

    /// Names the folder and the first few paths, and says nothing was written.
    public var sentence: String {
        let shown = files.prefix(3).joined(separator: ", ") + (files.count > 3 ? " and \(files.count - 3) more" : "")
        return "Refusing to write into \(folder): the build would replace \(shown), which Vitrine did not write, and "
            + "it never replaces someone else's files, even when forced, so it wrote nothing; move "
            + "\(files.count == 1 ? "it" : "them") away or choose another output folder."
    }

    /// Always `.cannotWrite`.
    public var kind: FailureKind { .cannotWrite }
}

/// A frozen rebuild (from the cache and the manifest alone) needs something that neither the cache nor the manifest can give.
public enum FrozenBuildError: UserFacingError {
    case noManifest(folder: String)
    case missing([String])
    case changed(gallery: String, detail: String)
    /// The random page's schedule and image (`random.json` in `folder`) are not in the output.
    case noRandomState(folder: String)

    /// Says what is missing or changed, and that a build that may use the network would mend it.
    public var sentence: String {
        switch self {
        case .noManifest(let folder):
            return "A frozen rebuild starts from an earlier build's manifest, and \(folder) has none; "
                + "build once unfrozen first."
        case .missing(let things):
            let shown =
                things.prefix(3).joined(separator: ", ") + (things.count > 3 ? " and \(things.count - 3) more" : "")
            return "A frozen rebuild may not use the network, and the cache lacks \(shown); build once unfrozen first."
        case .changed(let gallery, let detail):
            return
                "The frozen rebuild found that the gallery \(gallery) \(detail); build unfrozen to accept the change."
        case .noRandomState(let folder):
            return "A frozen rebuild makes the random page from its \(folder)\(RandomPageState.fileName), and the "
                + "output has none for this source; build once unfrozen first."
        }
    }

    /// Always `.nothingCached`.
    public var kind: FailureKind { .nothingCached }

    /// Checks that each rebuilt gallery is the one the manifest lists: same folder, same items in the same order.
    package static func check(
        _ galleries: [(folder: String, itemIDs: [String])], against recorded: [OutputManifest.Gallery]
    )
        throws
    {
        for (folder, ids) in galleries {
            let name = folder.isEmpty ? "at the output root" : "in \(folder)"
            guard let recorded = recorded.first(where: { $0.path == folder }) else {
                throw FrozenBuildError.changed(gallery: name, detail: "is not in the manifest")
            }
            if ids != recorded.items.map(\.id) {
                throw FrozenBuildError.changed(
                    gallery: name,
                    detail: "has \(ids.count) items where the manifest lists \(recorded.items.count) others")
            }
        }
    }
}
