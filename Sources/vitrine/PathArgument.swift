import ArgumentParser
import Foundation

/// Checks of the paths a command line names, which the file system alone would take in another sense.
enum PathArgument {
    /// Refuses an empty `value` of the option or argument `name`: the file system takes "" for the current folder,
    /// so `--cache ''` would silently fill it.
    static func requireNonEmpty(_ value: String?, _ name: String) throws {
        guard value?.isEmpty == true else { return }
        throw ValidationError(
            "\(name) is empty, and an empty path would silently mean the current folder; give it a path, or leave it "
                + "out for its default.")
    }

    /// Refuses a cache folder inside the output folder, which would publish every cached answer and image with the
    /// site.
    static func requireOutside(cache: URL, output: URL) throws {
        let cachePath = cache.standardizedFileURL.resolvingSymlinksInPath().path
        let outputPath = output.standardizedFileURL.resolvingSymlinksInPath().path
        guard cachePath.hasPrefix(outputPath.hasSuffix("/") ? outputPath : outputPath + "/") else { return }
        throw ValidationError(
            "The cache folder \(cache.path) is inside the output folder \(output.path), so it would be published with "
                + "the site; give --cache a folder outside --out.")
    }
}
