import Foundation
import VitrineBasics
import VitrineTemplates

/// A set of templates and assets: the default theme compiled into the binary, or a folder of the user's.
public struct Theme: Sendable {
    /// Every file by name (folders are not used: names are flat).
    package var files: [String: [UInt8]]
    /// Where the theme came from, for messages.
    package var origin: String

    static let stylesheetNames = ["grid.xsl", "preview.xsl"]
    static let nonAssetExtensions: Set<String> = ["xsl", "xslt", "rng", "md", "swift"]
    /// Files a theme folder may hold that are not part of the theme (its README, sources): they are not read, so
    /// editing them changes no page and no fingerprint, and an exported copy of the built-in theme is that theme.
    static let ignoredExtensions: Set<String> = ["md", "swift"]

    /// The theme built into Vitrine (`vitrine theme export` writes it out to start one's own).
    public static let builtIn = Theme(files: DefaultTheme.files, origin: "the built-in theme")

    /// Whether this is the theme compiled into the binary (a folder's origin is its path).
    package var isBuiltIn: Bool { origin == Self.builtIn.origin }

    package init(files: [String: [UInt8]], origin: String) {
        self.files = files
        self.origin = origin
    }

    /// Reads a theme folder: its regular files at the top level, at most 4 MiB each.
    public static func load(directory: URL) throws(TemplateError) -> Theme {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw TemplateError(template: directory.path, detail: "the folder cannot be read")
        }
        var files: [String: [UInt8]] = [:]
        let folder = RootedFiles(root: directory.path)
        for name in names.sorted()
        where !name.hasPrefix(".") && !ignoredExtensions.contains((name as NSString).pathExtension.lowercased()) {
            do {
                files[name] = try folder.read(name, limit: 4 << 20).bytes
            } catch .notRegularFile, .missing {
                continue
            } catch .tooLarge {
                throw TemplateError(
                    template: directory.appendingPathComponent(name).path, detail: "it is larger than 4 MiB")
            } catch {
                throw TemplateError(
                    template: directory.appendingPathComponent(name).path, detail: "it cannot be read (\(error))")
            }
        }
        for required in stylesheetNames where files[required] == nil {
            throw TemplateError(template: directory.appendingPathComponent(required).path, detail: "it is missing")
        }
        return Theme(files: files, origin: directory.path)
    }

    /// Files copied into the output's assets/ folder (styles, scripts, icons), by name.
    package var assets: [(name: String, bytes: [UInt8])] {
        files.filter { !Self.nonAssetExtensions.contains(($0.key as NSString).pathExtension.lowercased()) }
            .sorted { $0.key < $1.key }.map { (name: $0.key, bytes: $0.value) }
    }
}

/// A template is missing, cannot be compiled, or failed while rendering.
public struct TemplateError: UserFacingError {
    /// The template, or the theme's folder, that cannot be used.
    public let template: String
    /// What is wrong with it: missing, unreadable, too large, or libxslt's messages.
    public let detail: String
    /// Names the template and what is wrong with it.
    public var sentence: String { "The template \(template) cannot be used: \(detail)." }
    /// Always `.templateProblem`.
    public var kind: FailureKind { .templateProblem }
}
