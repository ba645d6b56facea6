import Foundation
import VitrineBasics
import VitrineStore

/// How the writer places images: copies from the cache checked against their digest, made beside the rendering.
extension OutputWriter {
    /// Places a copy of an image from the cache at `relativePath`, named by content, unless the file there already
    /// holds it; returns whether it wrote. The copy is checked against `sha256` on the way (a copy, never a link:
    /// an edit of one must not change the other). `urls` are the addresses it was downloaded from, for the
    /// manifest.
    @discardableResult
    package func placeImage(
        from source: URL, sha256: String, byteCount: Int, urls: [String]? = nil, at relativePath: String
    ) throws -> Bool {
        try placeImage(
            from: source, sha256: sha256, byteCount: byteCount, cachedStamp: nil, urls: urls, at: relativePath)
    }

    /// ``placeImage(from:sha256:byteCount:urls:at:)``; `cachedStamp` is the stamp the cached file had when its
    /// bytes were last hashed, which spares hashing them again on the way while it still has it.
    @discardableResult
    package func placeImage(
        from source: URL, sha256: String, byteCount: Int, cachedStamp: FileStamp?, urls: [String]?,
        at relativePath: String
    ) throws -> Bool {
        let placement = ImagePlacement(
            source: source.path, sha256: sha256, byteCount: byteCount, cachedStamp: cachedStamp, urls: urls,
            path: relativePath)
        guard try needsCopy(placement) else { return false }
        try record(Self.copy(placement, through: files), of: placement)
        return true
    }

    /// Records the image as this run's file, and whether it must be copied: not when the file there already is it.
    private func needsCopy(_ placement: ImagePlacement) throws -> Bool {
        let path = placement.path
        try Self.check(path)
        written[path] = OutputManifest.File(
            path: path, sha256: placement.sha256, size: placement.byteCount, urls: placement.urls)
        return try needsWriting(path) { stamp in
            previous.contains(path)
                && isIntact(path, stamp: stamp, sha256: placement.sha256, size: placement.byteCount)
        }
    }

    /// Places each image as ``placeImage(from:sha256:byteCount:cachedStamp:urls:at:)`` does while `meanwhile` runs
    /// beside it: which copies are needed is decided first, then they are made on two tasks of their own (half of
    /// them each), each through file handles of its own, and recorded once all are over. `meanwhile` may use this writer for other paths,
    /// never these (the build renders its pages meanwhile: pages and images are in different folders, so neither
    /// waits for the other's folder lock in the kernel). An error of `meanwhile` is thrown once the copies have
    /// stopped (they stop early then, as when the task is cancelled); a copy's, once `meanwhile` is over. An image
    /// `staged` holds under its SHA-256 (written from the bytes the cache hashed, while it downloaded) is linked into
    /// place instead of copied.
    package func placeImages(
        _ placements: [ImagePlacement], staged: StagedFiles? = nil, meanwhile: () async throws -> Void
    ) async throws {
        var copies: [ImagePlacement] = []
        written.reserveCapacity(written.count + placements.count)
        for placement in placements where try needsCopy(placement) { copies.append(placement) }
        let root = files.root
        // Two runs of copies, each on a task of its own: once the pages are written (most of them may have been
        // rendered while the images downloaded) both cores copy.
        let half = copies.count / 2
        let (first, second) = (Array(copies[..<half]), Array(copies[half...]))
        async let firstCopied = Self.copy(first, through: RootedFiles(root: root), staged: staged)
        async let secondCopied = Self.copy(second, through: RootedFiles(root: root), staged: staged)
        try await meanwhile()
        let outcomes = await firstCopied + secondCopied
        for (placement, outcome) in zip(copies, outcomes) { try record(outcome, of: placement) }
    }

    private func record(_ outcome: CopyOutcome, of placement: ImagePlacement) throws {
        switch outcome {
        case .copied(let stamp):
            found[placement.path] = .file(stamp)
            verified[placement.path] = .init(sha256: placement.sha256, stamp: stamp)
        case .failed(let error):
            throw error
        case .sourceChanged:
            throw CachedImageChangedError(path: placement.source)
        case .notCopied:
            throw CancellationError()
        }
    }

    /// What became of one copy of ``placeImages(_:meanwhile:)``.
    private enum CopyOutcome: Sendable {
        case copied(FileStamp)
        case failed(FileWriteError)
        case sourceChanged
        /// Not tried: an earlier copy failed, or the task was cancelled.
        case notCopied
    }

    /// Makes the copies in order through `files`, and stops at the first that fails or when the task is cancelled.
    private static func copy(
        _ copies: [ImagePlacement], through files: RootedFiles, staged: StagedFiles? = nil
    ) -> [CopyOutcome] {
        var outcomes: [CopyOutcome] = []
        outcomes.reserveCapacity(copies.count)
        var stopped = false
        for placement in copies {
            guard !stopped, !Task.isCancelled else {
                outcomes.append(.notCopied)
                continue
            }
            let outcome = copy(placement, through: files, staged: staged)
            if case .copied = outcome {} else { stopped = true }
            outcomes.append(outcome)
        }
        return outcomes
    }

    private static func copy(
        _ placement: ImagePlacement, through files: RootedFiles, staged: StagedFiles? = nil
    ) -> CopyOutcome {
        if let staged {
            do {
                if let stamp = try files.place(placement.sha256, from: staged, at: placement.path) {
                    return .copied(stamp)
                }
            } catch {
                return .failed(error)
            }
        }
        let descriptor: Int32
        do {
            descriptor = try SystemCall.open(placement.source, O_RDONLY | O_CLOEXEC)
        } catch {
            return .failed(FileWriteError(path: placement.source, reason: error.description))
        }
        defer { SystemCall.close(descriptor) }
        do throws(FileCopyError) {
            return .copied(
                try files.copy(
                    from: descriptor, sha256: placement.sha256, verified: placement.cachedStamp, to: placement.path))
        } catch {
            switch error {
            case .write(let error): return .failed(error)
            case .sourceDamaged: return .sourceChanged
            }
        }
    }
}
