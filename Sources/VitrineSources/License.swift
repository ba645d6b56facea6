import Foundation
import VitrineBasics

/// Under what terms a picture may be shown and copied, as its source declares it: what the pages say of it, and
/// whether Vitrine may download and republish it or must show it from the API's own URL.
///
/// Public because a `LicenseChoiceError` carries it; its members are the package's own.
public struct License: Sendable, Hashable {
    /// Whether the license lets anyone copy the picture.
    package enum Copies: String, Sendable, Hashable, Codable {
        /// A Creative Commons license, a public-domain mark, or a site license that allows reuse.
        case allowed
        /// All rights reserved.
        case forbidden
        /// The API says nothing, or something Vitrine cannot read.
        case unknown
    }

    /// The source's own id of the license (Flickr's `license` extra), when it has one.
    package var id: String?
    /// The license's full name as its source gives it: "Attribution License".
    package var name: String
    /// A short label for a tile: "CC BY 2.0", "All rights reserved", "License unknown".
    package var label: String
    /// The license's own page, an http(s) URL.
    package var url: String?
    package var copies: Copies
    /// Whether the person who runs Vitrine declared the license for a source that names none
    /// (`--declared-license`), rather than the source giving it.
    package var declaredBySite: Bool

    package init(id: String?, name: String, label: String, url: String?, copies: Copies, declaredBySite: Bool = false) {
        self.id = id
        self.name = name
        self.label = label
        self.url = RemoteURLPolicy.accepted(url)
        self.copies = copies
        self.declaredBySite = declaredBySite
    }

    /// The license as a source's configuration records it, when the site declares it.
    var configuration: String {
        SourceSettings.text(
            "declared-license", ["id": id, "label": label, "url": url, "copies": copies.rawValue])
    }

    /// Whether Vitrine may download the picture and publish a copy of it.
    package var allowsCopies: Bool { copies == .allowed }

    /// What a source that says nothing of licenses gives: the picture is shown from its own URL and never copied.
    package static let unknown = License(
        id: nil, name: "License unknown", label: "License unknown", url: nil, copies: .unknown)

    /// The license the site declares for a source that names none (`--declared-license`): `own` (the site's own
    /// pictures), a Creative Commons license or public-domain tool by its label or id ("CC BY 4.0", "cc-by-sa-4.0",
    /// "CC0", "PDM") or its creativecommons.org URL. Every one allows copies. Nil for anything else.
    package static func declaredBySite(_ text: String) -> License? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 200 else { return nil }
        let words = trimmed.lowercased().split(whereSeparator: { " -_".contains($0) }).map(String.init)
        if words == ["own"] {
            return License(
                id: "own", name: "The site's own pictures", label: "The site's own", url: nil, copies: .allowed,
                declaredBySite: true)
        }
        let url = RemoteURLPolicy.accepts(trimmed) ? trimmed : creativeCommonsURL(words)
        guard let url, let label = label(ofLicenseAt: url) else { return nil }
        return License(id: nil, name: label, label: label, url: url, copies: .allowed, declaredBySite: true)
    }

    /// The URL of the Creative Commons license or public-domain tool that `words` (a label or id, lowercased and
    /// split at spaces, dashes and underscores, as `by sa 4.0` or Openverse's code and version) names; nil when they
    /// name none.
    static func creativeCommonsURL(_ words: [String]) -> String? {
        var words = words
        if words.first == "cc" { words.removeFirst() }
        let versions = ["1.0", "2.0", "2.1", "2.5", "3.0", "4.0"]
        switch words {
        case ["cc0"], ["cc0", "1.0"], ["zero"], ["zero", "1.0"]:
            return "https://creativecommons.org/publicdomain/zero/1.0/"
        case ["pdm"], ["pdm", "1.0"], ["public", "domain", "mark"], ["public", "domain", "mark", "1.0"]:
            return "https://creativecommons.org/publicdomain/mark/1.0/"
        default:
            guard let version = words.last, versions.contains(version), words.first == "by" else { return nil }
            let elements = words.dropLast()
            guard Set(elements).count == elements.count, elements.allSatisfy(["by", "nc", "sa", "nd"].contains),
                !(elements.contains("sa") && elements.contains("nd"))
            else { return nil }
            let ordered = ["by", "nc", "sa", "nd"].filter(elements.contains)
            return "https://creativecommons.org/licenses/\(ordered.joined(separator: "-"))/\(version)/"
        }
    }

    /// Every Pixabay image: free to use and copy under Pixabay's own license.
    package static let pixabay = License(
        id: "pixabay", name: "Pixabay Content License", label: "Pixabay License",
        url: "https://pixabay.com/service/license-summary/", copies: .allowed)

    /// Every Unsplash image, and so every Lorem Picsum one.
    package static let unsplash = License(
        id: "unsplash", name: "Unsplash License", label: "Unsplash License", url: "https://unsplash.com/license",
        copies: .allowed)

    /// A license of Flickr's table (`flickr.photos.licenses.getInfo`), read from its name and URL together, since
    /// Flickr has changed both over the years: all rights reserved by its name (with or without a URL, which Flickr
    /// now gives as a help page); a Creative Commons license or public-domain tool by its URL; Flickr Commons' "no
    /// known copyright restrictions" by its URL on flickr.com, or its name with a flickr.com URL; a United States
    /// Government work by its name with a usa.gov URL. Anything else keeps its name and is of unknown terms.
    package static func flickr(id: String, name: String, url: String) -> License {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        let url = url.trimmingCharacters(in: .whitespacesAndNewlines)
        let shown = name.isEmpty ? "License \(id)" : String(name.prefix(200))
        let link = url.isEmpty ? nil : url
        let folded = name.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if folded == "all rights reserved" {
            // Its link is Flickr's page on using members' photos, never a license's that would say otherwise.
            return License(
                id: id, name: shown, label: "All rights reserved", url: label(ofLicenseAt: url) == nil ? link : nil,
                copies: .forbidden)
        }
        let label =
            label(ofLicenseAt: url) ?? flickrLabel(named: folded, host: URLComponents(string: url)?.host?.lowercased())
        guard let label, RemoteURLPolicy.accepts(url) else {
            return License(id: id, name: shown, label: shown, url: link, copies: .unknown)
        }
        return License(id: id, name: shown, label: label, url: url, copies: .allowed)
    }

    /// The label of a license of Flickr's own that allows copies, from its folded name and the host of its URL;
    /// nil unless both agree.
    private static func flickrLabel(named name: String, host: String?) -> String? {
        switch (name, host) {
        case ("no known copyright restrictions", "www.flickr.com"), ("no known copyright restrictions", "flickr.com"):
            "No known copyright restrictions"
        case ("united states government work", "www.usa.gov"), ("united states government work", "usa.gov"):
            "United States Government Work"
        default: nil
        }
    }

    /// The short label of a license that allows copies, from its URL; nil for any other URL.
    static func label(ofLicenseAt url: String) -> String? {
        guard RemoteURLPolicy.accepts(url), let components = URLComponents(string: url),
            let host = components.host?.lowercased()
        else { return nil }
        let parts = components.path.lowercased().split(separator: "/").map(String.init)
        let isVersion = { (text: String) in
            !text.isEmpty && text.count <= 8 && text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
        }
        switch host {
        case "creativecommons.org", "www.creativecommons.org":
            if parts.count >= 3, parts[0] == "licenses", isVersion(parts[2]),
                case let elements = parts[1].split(separator: "-"), !elements.isEmpty, elements.first == "by",
                elements.allSatisfy({ ["by", "sa", "nc", "nd"].contains($0) })
            {
                return "CC \(parts[1].uppercased()) \(parts[2])"
            }
            if parts.count >= 3, parts[0] == "publicdomain", isVersion(parts[2]) {
                switch parts[1] {
                case "zero": return "CC0 \(parts[2])"
                case "mark": return "Public Domain Mark \(parts[2])"
                default: return nil
                }
            }
            return nil
        case "www.flickr.com", "flickr.com":
            return parts == ["commons", "usage"] ? "No known copyright restrictions" : nil
        default:
            return nil
        }
    }
}

/// Which licenses a gallery shows (`--license`): every photo, only those whose license allows copies, or only
/// the licenses named.
public enum LicenseChoice: Sendable, Hashable {
    case any
    case reusable
    /// License ids or short labels ("4", "CC BY 2.0"), as the user wrote them.
    case named([String])

    /// `any`, `reusable`, or a comma-separated list of ids and labels; nil for an empty list.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch trimmed.lowercased() {
        case "any": self = .any
        case "reusable": self = .reusable
        default:
            let names = trimmed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            guard !names.isEmpty, names.allSatisfy({ $0.utf8.count <= 100 }) else { return nil }
            self = .named(names)
        }
    }

    /// The setting as a source's configuration records it.
    var configuration: String {
        switch self {
        case .any: "any"
        case .reusable: "reusable"
        case .named(let names): "named:" + names.map { "\($0.utf8.count):\($0)" }.joined(separator: ",")
        }
    }

    /// Whether `license` is one the choice keeps.
    func keeps(_ license: License) -> Bool {
        switch self {
        case .any: true
        case .reusable: license.allowsCopies
        case .named(let names): names.contains { Self.names(license, $0) }
        }
    }

    /// Whether `name` (an id or a short label, in any case and spacing) names `license`.
    static func names(_ license: License, _ name: String) -> Bool {
        let folded = { (text: String) in
            text.lowercased().split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "_" }).joined(separator: " ")
        }
        return license.id == name || folded(license.label) == folded(name) || folded(license.name) == folded(name)
    }

    /// Checks the choice against a source whose every picture has `license`, so that the gallery is not left
    /// empty by a choice that can never match; `source` names the API in the sentence.
    package func check(fixed license: License, source: String) throws(LicenseChoiceError) {
        guard !keeps(license) else { return }
        throw .neverMatches(choice: self, source: source, license: license)
    }

    /// The choice as the user wrote it.
    public var description: String {
        switch self {
        case .any: "any"
        case .reusable: "reusable"
        case .named(let names): names.joined(separator: ",")
        }
    }
}

/// A license choice that cannot be followed.
public enum LicenseChoiceError: UserFacingError {
    /// The source's every picture has `license`, which the choice leaves out.
    case neverMatches(choice: LicenseChoice, source: String, license: License)
    /// Names in `choice` that are neither an id nor a label of the source's licenses.
    case unknownNames([String], choice: LicenseChoice, source: String, known: [License])
    /// `reusable`, against a source none of whose licenses (`known`) allows copies.
    case noneAllowsCopies(source: String, known: [License])

    /// How many of the source's licenses a sentence names: a table may list a thousand.
    static let licensesNamed = 4

    /// The choice that cannot be followed, whole, as the user wrote it.
    public var choice: LicenseChoice {
        switch self {
        case .neverMatches(let choice, _, _), .unknownNames(_, let choice, _, _): choice
        case .noneAllowsCopies: .reusable
        }
    }

    /// Names the choice as the user wrote it, and what the source's licenses are.
    public var sentence: String { sentence(choiceNamed: { "the license choice “\($0.description)”" }) }

    /// The sentence, with `name` saying how the user made the choice (the command line names its option).
    public func sentence(choiceNamed name: (LicenseChoice) -> String) -> String {
        switch self {
        case .neverMatches(let choice, let source, let license):
            license.copies == .allowed
                ? "\(name(choice)) would leave no picture of \(source): every one is under the \(license.name), which "
                    + "allows copies."
                : "\(name(choice)) would leave no picture of \(source): \(source) says nothing of licenses, so its "
                    + "pictures are shown from their own URLs and only “any” applies."
        case .unknownNames(let names, _, let source, let known):
            "\(name(.named(names))) names no \(source) license; " + Self.listing(known) + "."
        case .noneAllowsCopies(let source, let known):
            "\(name(.reusable)) would leave no picture of \(source): none of its licenses allows copies ("
                + Self.listing(known) + ")."
        }
    }

    /// The source's licenses as a sentence names them: all of a few, else the first few and how many there are.
    static func listing(_ known: [License]) -> String {
        let named = known.prefix(licensesNamed).map { license in
            let label = license.label.count > 60 ? license.label.prefix(59) + "…" : license.label
            return "\(license.id ?? "no id") (\(label))"
        }
        switch known.count {
        case 0: return "it lists no license"
        case ...licensesNamed: return "its licenses are " + named.joined(separator: ", ")
        default:
            return "its \(known.count) licenses include " + named.joined(separator: ", ") + " and more"
        }
    }

    /// Always `.invalidArgument`.
    public var kind: FailureKind { .invalidArgument }
}
