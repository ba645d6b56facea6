import Foundation
import VitrineBasics
import VitrinePublish
import VitrineStore

/// Takes images back from an output folder into the cache: when the cache lacks an image and it cannot be downloaded
/// (offline, or its host is down), the copy an earlier build put in the output, found through the manifest's record
/// of the URLs each image came from, is kept instead of becoming a placeholder, if its bytes are still whole.
struct OutputImageRecovery: Sendable {
    /// The manifest's image files, by each URL they were downloaded from.
    private let files: [String: OutputManifest.File]
    private let root: String
    private let cache: CacheStore

    init(survey: OutputFolderSurvey, cache: CacheStore) {
        var files: [String: OutputManifest.File] = [:]
        for file in survey.previousFiles.values where !file.sha256.isEmpty {
            for url in file.urls ?? [] { files[url] = file }
        }
        self.files = files
        root = survey.root.path
        self.cache = cache
    }

    /// The output's copy of the image of `url`, stored in the cache again; nil when there is none whole.
    func recover(_ url: String) -> (record: CacheStore.ImageRecord, stamp: FileStamp)? {
        guard let file = files[url],
            let bytes = RootedFiles(root: root).contents(file.path, limit: OutputWriter.largestVerifiedFile),
            SHA256Hasher.hex(of: bytes) == file.sha256, let format = ImageFormat.sniff(bytes)
        else { return nil }
        return try? cache.storeStampedImage(bytes, format: format, from: url)
    }
}
