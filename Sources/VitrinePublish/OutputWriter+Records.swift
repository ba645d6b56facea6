import Foundation
import VitrineBasics
import VitrineStore

/// What the writer leaves in the cache about the folder once a build is over: the records the next build of the
/// folder reads instead of doing the work again (`OutputRecordPaths`).
extension OutputWriter {
    /// After `finish`, leaves in the cache what the next build of the folder uses: the verified stamps of its
    /// files, the copy of the manifest's files, and a ``BuildState`` with what the build read (`fingerprint`,
    /// `responses`) and reported (`summary`). Without a usable record (`responses` nil: not every answer came from
    /// the cache as it now is), the folder keeps no build state. The three are different files, each complete in
    /// itself, so they are encoded and written at once, over the processor's cores.
    package func recordState(
        fingerprint: String, summary: BuildSummary, expires: Date? = nil, responses: [BuildState.Response]?
    ) async {
        guard let records else { return }
        let copy = manifestCopyToRecord()
        let (written, verified, verifiedAtStart) = (written, verified, verifiedAtStart)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                let kept = Self.verifiedToRecord(written: written, verified: verified, atStart: verifiedAtStart)
                if let kept { Self.record(kept.encoded(), at: records.verified, records) }
            }
            if let (copy, path) = copy { group.addTask { Self.record(copy.encoded(), at: path, records) } }
            recordBuildState(
                fingerprint: fingerprint, summary: summary, expires: expires, responses: responses, records: records)
        }
    }

    private func recordBuildState(
        fingerprint: String, summary: BuildSummary, expires: Date?, responses: [BuildState.Response]?,
        records: OutputRecordPaths
    ) {
        var stateFiles: [BuildState.File] = []
        for path in writtenPaths + [OutputManifest.fileName] {
            guard case .file(let stamp) = found[path] ?? files.entry(path) else {
                try? removeState()
                return
            }
            stateFiles.append(BuildState.File(path: path, stamp: stamp))
        }
        guard let responses,
            let bytes = BuildState(
                fingerprint: fingerprint, summary: summary, expires: expires, responses: responses, files: stateFiles
            ).encoded()
        else {
            try? removeState()
            return
        }
        if !stateRemoved, (try? FileBytes.read(atPath: records.state, limit: bytes.count)) == bytes {
            return
        }
        stateRemoved = false
        Self.record(bytes, at: records.state, records)
    }

    /// Writes one of the cache's records of the folder, or removes it when it cannot be written (`bytes` nil, or
    /// the write failed): an old record would be checked and ignored, but costs the next build its reading.
    private static func record(_ bytes: [UInt8]?, at path: String, _ records: OutputRecordPaths) {
        guard let bytes,
            (try? AtomicFile.write(bytes, to: URL(fileURLWithPath: path), temporaryFolder: records.temporaryFolder))
                != nil
        else {
            try? SystemCall.removeFile(path)
            return
        }
    }

    /// The copy of the manifest's files `finish` left in place (`ManifestCopy`) and where it goes, unless the
    /// copy there is of this very manifest already.
    private func manifestCopyToRecord() -> (ManifestCopy, String)? {
        guard let path = records?.manifestCopy, let (manifest, sha256) = finishedManifest,
            !(previousManifest.copied && previousManifest.sha256 == sha256)
        else { return nil }
        let copy = ManifestCopy(
            manifestSHA256: sha256, galleriesDigest: OutputManifest.galleriesDigest(manifest.galleries),
            files: manifest.files)
        return (copy, path)
    }

    /// After `finish`, leaves in the cache the stamps of the files whose bytes this run wrote or verified, so that
    /// the next build of the folder can trust them with a `stat`.
    package func recordVerified() {
        guard let records,
            let verified = Self.verifiedToRecord(written: written, verified: verified, atStart: verifiedAtStart)
        else { return }
        Self.record(verified.encoded(), at: records.verified, records)
    }

    /// The stamps ``recordVerified()`` records, of the files `written` whose digest `verified` holds; nil when they
    /// are the ones the cache held at the start (`atStart`).
    private static func verifiedToRecord(
        written: [String: OutputManifest.File], verified: VerifiedFiles, atStart: VerifiedFiles
    ) -> VerifiedFiles? {
        var kept = VerifiedFiles()
        for (path, file) in written {
            if let known = verified[path], known.sha256 == file.sha256 { kept[path] = known }
        }
        return kept == atStart ? nil : kept
    }
}
