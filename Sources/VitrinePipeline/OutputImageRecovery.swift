import Foundation
import Synchronization
import VitrineBasics
import VitrinePublish
import VitrineStore

/// Takes images back from an output folder into the cache: when the cache lacks an image and it cannot be downloaded
/// (offline, or its host is down), the copy an earlier build put in the output, found through the manifest's record
/// of the URLs each image came from, is kept instead of becoming a placeholder, if its bytes are still whole.
struct OutputImageRecovery: Sendable {
    /// The manifest's image files, by each URL they were downloaded from: made when an image is first asked for,
    /// as nearly every build asks for none.
    private let files: LazyFiles
    private let root: String
    private let cache: CacheStore

    init(survey: OutputFolderSurvey, cache: CacheStore) {
        files = LazyFiles(previousFiles: survey.previousFiles)
        root = survey.root.path
        self.cache = cache
    }

    /// The output's copy of the image of `url`, stored in the cache again; nil when there is none whole.
    func recover(_ url: String) -> (record: CacheStore.ImageRecord, stamp: FileStamp)? {
        guard let file = files.file(of: url),
            let bytes = RootedFiles(root: root).contents(file.path, limit: OutputWriter.largestVerifiedFile),
            SHA256Hasher.hex(of: bytes) == file.sha256, let format = ImageFormat.sniff(bytes)
        else { return nil }
        return try? cache.storeStampedImage(bytes, format: format, from: url)
    }
}

/// The image files of a manifest by each URL they were downloaded from, made on first use.
private final class LazyFiles: Sendable {
    private let previousFiles: [String: OutputManifest.File]
    private let byURL = Mutex<[String: OutputManifest.File]?>(nil)

    init(previousFiles: [String: OutputManifest.File]) {
        self.previousFiles = previousFiles
    }

    func file(of url: String) -> OutputManifest.File? {
        byURL.withLock { made in
            if made == nil {
                var files: [String: OutputManifest.File] = [:]
                for file in previousFiles.values where !file.sha256.isEmpty {
                    for url in file.urls ?? [] { files[url] = file }
                }
                made = files
            }
            return made?[url]
        }
    }
}
