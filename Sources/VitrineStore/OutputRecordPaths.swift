import Foundation

/// Where the cache keeps its records of one output folder: the build state that lets a no-change rebuild stop
/// early, the stamps of the files it verified, the copy of its manifest's files, and the folder for their
/// temporary files.
package struct OutputRecordPaths: Sendable {
    package var state: String
    package var verified: String
    package var temporaryFolder: URL
    /// Where the copy of the manifest's files is kept; nil: nowhere, the manifest is always decoded.
    package var manifestCopy: String? = nil
}
