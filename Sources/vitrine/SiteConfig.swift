import ArgumentParser
import Foundation
import TOMLKit
import VitrineBasics
import VitrinePipeline
import VitrineSources

/// A site config (`vitrine.toml`): the site's `title` and optional `base-url`, and one `[[gallery]]` table per
/// gallery whose keys are its command's long option names (`source` names the command, `term` its argument, and
/// `path` the gallery's folder). API keys come from the environment, never from the file.
struct SiteConfig {
    var title: String
    var baseURL: String?
    /// `history = true`: keep the site's history (`history.json`, "What's new" pages).
    var history = false
    /// `formats = ["avif", "webp"]`: the re-encoded formats its images are also offered in.
    var formats: [ReencodedFormat] = []
    /// `cache-max-size = "1G"`: the most the cache keeps (`--cache-max-size` wins over it).
    var cacheMaximumSize: ByteSize?
    var galleries: [GallerySetup]
    /// The SHA-256 of the file's bytes, which shards of a site record and a merge compares.
    var digest = ""
    /// Each `license` key of a gallery, in file order, with the choice it makes and where it stands.
    var licenseKeys: [(choice: LicenseChoice, place: ConfigError)] = []

    /// A choice of licenses that the source could not follow, as the file's problem: where its `license` key
    /// stands, and why. Nil when no gallery of the file makes that choice.
    func configError(for error: LicenseChoiceError) -> ConfigError? {
        guard var place = licenseKeys.first(where: { $0.choice == error.choice })?.place else { return nil }
        place.problem = error.sentence(choiceNamed: { "“\($0.description)”" })
        return place
    }

    /// The gallery commands a `[[gallery]]` table may name as its `source`.
    static let galleryTypes: [any GalleryOptions.Type] = [
        PixabayGallery.self, FlickrGallery.self, OpenverseGallery.self, CommonsGallery.self, ThumbnailsGallery.self,
        AlbumsGallery.self,
        RandomGallery.self,
    ]

    /// Folder names the site itself uses.
    static let reservedFolders: Set<String> = ["assets", "images", "tags"]

    /// Whether a folder name ends like a file the site or a gallery writes (`index.html`, `page-2.html`,
    /// `changes-3.html`, `feed.xml`, `history.json`, `search-index.js`, …), so that a gallery in it could clash with
    /// one.
    static func looksLikeAFile(_ name: Substring) -> Bool {
        [".html", ".xml", ".json", ".js"].contains { name.hasSuffix($0) }
    }

    /// The warning a build without history gives when galleries ask to keep every item: an archive needs the
    /// history's records, so `keep = "all"` does nothing there.
    var keepAllWithoutHistoryWarning: String? {
        let folders = galleries.compactMap { gallery -> String? in
            guard case .gallery(let plan) = gallery.plan, plan.keepAll else { return nil }
            return plan.folder
        }
        guard !folders.isEmpty else { return nil }
        return "keep = \"all\" (in \(folders.joined(separator: ", "))) does nothing without history, so items that "
            + "leave the results are not kept; set history = true in the config (or pass --history) to keep them."
    }

    /// The API keys of every source that reads one from the environment, for keeping them out of messages.
    static func secrets(in environment: [String: String]) -> [String] {
        galleryTypes.compactMap { $0.keyVariable.flatMap { environment[$0] } }.filter { !$0.isEmpty }
    }

    /// The most a config file may hold: far more than a site of thousands of galleries needs.
    static let largestFile = 16 << 20

    static func load(path: String, environment: [String: String]) throws(ConfigError) -> SiteConfig {
        let file = (path as NSString).lastPathComponent
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(atPath: path, limit: largestFile, acceptingPipes: true)
        } catch .missing {
            throw ConfigError(file: path, line: nil, key: nil, problem: "there is no such file (pass --config FILE)")
        } catch {
            throw ConfigError(file: path, line: nil, key: nil, problem: "the file cannot be read: \(error)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigError(file: file, line: nil, key: nil, problem: "the file is not UTF-8 text")
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError(file: file, line: error.source.begin.line, key: nil, problem: error.description)
        } catch {
            throw ConfigError(file: file, line: nil, key: nil, problem: "it is not valid TOML")
        }
        var config = try SiteConfigReader(file: file, lines: ConfigLines(text), environment: environment).read(table)
        config.digest = SHA256Hasher.hex(of: bytes)
        return config
    }
}

/// Turns the parsed TOML into galleries, naming file, line and key for every problem.
private struct SiteConfigReader {
    let file: String
    let lines: ConfigLines
    let environment: [String: String]

    func read(_ table: TOMLTable) throws(ConfigError) -> SiteConfig {
        for key in table.keys
        where !["title", "base-url", "history", "formats", "cache-max-size", "gallery"].contains(key) {
            throw error(
                key,
                problem:
                    "unknown key (the top level takes title, base-url, history, formats, cache-max-size and "
                    + "[[gallery]] tables)")
        }
        var cacheMaximumSize: ByteSize?
        if let value = table["cache-max-size"] {
            let size =
                value.string.flatMap(ByteSize.init(argument:)) ?? value.int.flatMap { ByteSize(argument: "\($0)") }
            guard let size else {
                throw error(
                    "cache-max-size", problem: "it must be a size in bytes or with a K, M or G suffix, like \"1G\"")
            }
            cacheMaximumSize = size
        }
        var formats: [ReencodedFormat] = []
        if let value = table["formats"] {
            let names = value.array?.compactMap(\.string)
            guard let names, names.count == value.array?.count else {
                throw error("formats", problem: "it must be a list of strings, like [\"avif\", \"webp\"]")
            }
            do {
                formats = try ImageFormatList.parse(names)
            } catch {
                throw self.error("formats", problem: "it \(error.problem)")
            }
        }
        var history = false
        if let value = table["history"] {
            guard let flag = value.bool else { throw error("history", problem: "it must be true or false") }
            history = flag
        }
        guard let titleValue = table["title"] else {
            throw ConfigError(file: file, line: nil, key: "title", problem: "it is missing; the site needs a title")
        }
        guard let title = titleValue.string, !title.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw error("title", problem: "it must be a non-empty string")
        }
        var baseURL: String?
        if let value = table["base-url"] {
            guard let text = value.string, let url = URL(string: text), ["http", "https"].contains(url.scheme),
                url.host?.isEmpty == false, url.query == nil, url.fragment == nil
            else {
                throw error(
                    "base-url", problem: "it must be an absolute http or https URL, like https://example.org/photos/")
            }
            guard url.user == nil, url.password == nil else {
                throw error(
                    "base-url",
                    problem:
                        "it must not hold a user name or password, which sitemap.xml and feed.xml would publish; "
                        + "give the address readers use, like https://example.org/photos/")
            }
            baseURL = text.hasSuffix("/") ? text : text + "/"
        }
        guard let array = table["gallery"]?.array, !array.isEmpty else {
            if table["gallery"] != nil { throw error("gallery", problem: "it must be [[gallery]] tables") }
            throw ConfigError(file: file, line: nil, key: nil, problem: "it lists no [[gallery]] tables")
        }
        var galleries: [GallerySetup] = []
        var licenseKeys: [(choice: LicenseChoice, place: ConfigError)] = []
        var folders: [String: Int] = [:]
        for index in 0..<array.count {
            guard let gallery = array[index].table else {
                throw ConfigError(
                    file: file, line: lines.galleryHeader(index), key: "gallery", problem: "it must be a table")
            }
            galleries.append(try read(gallery, index: index, folders: &folders))
            if let text = gallery["license"].flatMap(Self.text(of:)), let choice = LicenseChoice(text) {
                licenseKeys.append((choice, error("license", in: index, problem: "")))
            }
        }
        var config = SiteConfig(
            title: title, baseURL: baseURL, history: history, formats: formats, cacheMaximumSize: cacheMaximumSize,
            galleries: galleries)
        config.licenseKeys = licenseKeys
        return config
    }

    private func read(_ table: TOMLTable, index: Int, folders: inout [String: Int]) throws(ConfigError)
        -> GallerySetup
    {
        let header = lines.galleryHeader(index)
        let names = SiteConfig.galleryTypes.map { $0.sourceName }
        guard let sourceValue = table["source"] else {
            throw ConfigError(
                file: file, line: header, key: "source",
                problem: "it is missing; name one of \(names.joined(separator: ", "))")
        }
        guard let sourceName = sourceValue.string,
            let type = SiteConfig.galleryTypes.first(where: { $0.sourceName == sourceName })
        else {
            throw error("source", in: index, problem: "it must be one of \(names.joined(separator: ", "))")
        }
        let options = try parse(table, as: type, index: index)
        var folder: String
        if let value = table["path"] {
            guard let text = value.string, Self.isValidFolder(text) else {
                throw error(
                    "path", in: index,
                    problem:
                        "it must be a relative folder of lowercase letters, digits, '.', '-' and '_', like \"hamburg\"")
            }
            folder = text.hasSuffix("/") ? String(text.dropLast()) : text
            if let long = folder.split(separator: "/").first(where: { $0.utf8.count > Self.longestFolderName }) {
                throw error(
                    "path", in: index,
                    problem:
                        "the folder name \(long.prefix(40))… is \(long.utf8.count) bytes long, and a file system "
                        + "holds names of at most \(Self.longestFolderName) bytes; choose a shorter one")
            }
            if folders[folder] != nil {
                throw error("path", in: index, problem: "another gallery already uses the folder \(folder)")
            }
        } else {
            folder = Self.slug(options.folderName).isEmpty ? type.sourceName : Self.slug(options.folderName)
            if SiteConfig.reservedFolders.contains(folder) { folder += "-gallery" }
            let base = folder
            var number = 1
            while folders[folder] != nil {
                number += 1
                folder = "\(base)-\(number)"
            }
        }
        if SiteConfig.reservedFolders.contains(folder.split(separator: "/").first.map(String.init) ?? "") {
            throw error("path", in: index, problem: "the site keeps its own files in \(folder)/; choose another folder")
        }
        if let name = folder.split(separator: "/").first(where: SiteConfig.looksLikeAFile) {
            throw error(
                "path", in: index,
                problem:
                    "the folder name \(name) ends like the files the site and its galleries write (index.html, "
                    + "page-2.html, changes.html, feed.xml, history.json, search-index.js, …) and could clash with "
                    + "one; choose a name without .html, .xml, .json or .js")
        }
        for (other, otherIndex) in folders.sorted(by: { $0.value < $1.value })
        where folder.hasPrefix(other + "/") || other.hasPrefix(folder + "/") {
            let place = lines.line(of: "path", inGallery: otherIndex) ?? lines.galleryHeader(otherIndex)
            throw error(
                "path", in: index,
                problem:
                    "the folder \(folder) and the folder \(other) of the \(Self.ordinal(otherIndex + 1)) [[gallery]]"
                    + (place.map { " (line \($0))" } ?? "") + " lie one inside the other, where their pages would "
                    + "clash; give each gallery a folder of its own beside the others")
        }
        folders[folder] = index
        var setup = options.setup(folder: folder + "/", environment: environment)
        if let value = table["keep"] {
            guard let keep = value.string, ["all", "current"].contains(keep) else {
                throw error("keep", in: index, problem: "it must be \"all\" or \"current\"")
            }
            guard case .gallery(var plan) = setup.plan,
                ["pixabay", "flickr", "openverse", "commons", "thumbnails"].contains(type.sourceName)
            else {
                throw error(
                    "keep", in: index,
                    problem:
                        "only pixabay, flickr, openverse, commons and thumbnails galleries keep the items that left their results"
                )
            }
            plan.keepAll = keep == "all"
            setup.plan = .gallery(plan)
        }
        return setup
    }

    /// Parses a table as the command line of `type`'s command: `term` as its argument, every other key as the
    /// option of that name. Keys are added one at a time in file order, so that a problem names its key.
    private func parse(_ table: TOMLTable, as type: any GalleryOptions.Type, index: Int) throws(ConfigError)
        -> any GalleryOptions
    {
        let declared = type.configKeys
        var positional: [String] = []
        var optional: [(key: String, arguments: [String])] = []
        for key in table.keys.sorted(by: {
            (lines.line(of: $0, inGallery: index) ?? 0) < (lines.line(of: $1, inGallery: index) ?? 0)
        })
        where !["source", "path", "keep"].contains(key) {
            if key == "key", let variable = type.keyVariable {
                throw error(
                    key, in: index, problem: "API keys come from the environment ($\(variable)), never from the file")
            }
            if let reason = type.refusedKeys[key] { throw error(key, in: index, problem: reason) }
            guard let kind = declared[key] else {
                let known = (["source", "path", "keep"] + declared.keys.sorted()).joined(separator: ", ")
                throw error(key, in: index, problem: "unknown key for source \(type.sourceName) (known: \(known))")
            }
            let value = table[key]!
            switch kind {
            case .argument:
                guard let text = Self.text(of: value) else {
                    throw error(key, in: index, problem: "it must be a string or a number")
                }
                positional.append(text)
            case .flag:
                guard let flag = value.bool else { throw error(key, in: index, problem: "it must be true or false") }
                optional.append((key, flag ? ["--\(key)"] : []))
            case .option:
                if let array = value.array {
                    var arguments: [String] = []
                    for element in 0..<array.count {
                        guard let text = Self.text(of: array[element]) else {
                            throw error(key, in: index, problem: "its elements must be strings or numbers")
                        }
                        arguments.append("--\(key)=\(text)")
                    }
                    optional.append((key, arguments))
                } else if let text = Self.text(of: value) {
                    // One word, so that a value such as -1 is read as the value it is, not as another option.
                    optional.append((key, ["--\(key)=\(text)"]))
                } else {
                    throw error(key, in: index, problem: "it must be a string or a number")
                }
            }
        }
        var arguments = positional
        do {
            _ = try type.parse(arguments)
        } catch {
            let key = declared.first { $0.value == .argument }?.key ?? "term"
            guard table[key] != nil else {
                throw self.error(key, in: index, problem: "it is missing; a \(type.sourceName) gallery needs one")
            }
            throw self.error(key, in: index, problem: type.message(for: error))
        }
        var parsed: any GalleryOptions = try! type.parse(arguments)
        for (key, extra) in optional {
            arguments += extra
            do {
                parsed = try type.parse(arguments)
            } catch {
                throw self.error(key, in: index, problem: type.message(for: error))
            }
        }
        return parsed
    }

    private static func text(of value: any TOMLValueConvertible) -> String? {
        if let string = value.string { return string }
        if let int = value.int { return String(int) }
        if let double = value.double { return String(double) }
        return nil
    }

    /// A folder name made from a term: lowercase ASCII letters and digits, words joined by "-".
    static func slug(_ text: String) -> String {
        let folded = text.folding(
            options: [.diacriticInsensitive, .caseInsensitive], locale: Locale(identifier: "en_US_POSIX")
        )
        .lowercased()
        var slug = ""
        for scalar in folded.unicodeScalars {
            if scalar.isASCII
                && (CharacterSet.lowercaseLetters.contains(scalar) || CharacterSet.decimalDigits.contains(scalar))
            {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty && !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return String(slug.prefix(60))
    }

    /// The longest name of one folder, in bytes: Linux's `NAME_MAX`, the limit of ext4, XFS, Btrfs, tmpfs and the
    /// file systems CI runners and static hosts use. A longer one would stop the build only after every download.
    static let longestFolderName = 255

    static func isValidFolder(_ text: String) -> Bool {
        let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789._-")
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        return !trimmed.isEmpty
            && parts.allSatisfy { part in
                !part.isEmpty && !part.hasPrefix(".") && part.allSatisfy(allowed.contains)
            }
    }

    private func error(_ key: String, in gallery: Int? = nil, problem: String) -> ConfigError {
        let line =
            gallery.map { lines.line(of: key, inGallery: $0) ?? lines.galleryHeader($0) } ?? lines.topLevelLine(of: key)
        let name = gallery.map { "\(key) of the \(Self.ordinal($0 + 1)) [[gallery]]" } ?? key
        return ConfigError(file: file, line: line, key: name, problem: problem)
    }

    private static func ordinal(_ number: Int) -> String {
        let suffix: String
        switch (number % 10, number % 100) {
        case (1, let tens) where tens != 11: suffix = "st"
        case (2, let tens) where tens != 12: suffix = "nd"
        case (3, let tens) where tens != 13: suffix = "rd"
        default: suffix = "th"
        }
        return "\(number)\(suffix)"
    }
}
