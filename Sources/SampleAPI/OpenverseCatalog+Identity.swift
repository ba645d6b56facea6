import Foundation

/// How an Openverse result's id names its picture, and the license texts Openverse derives from a result.
extension OpenverseCatalog {
    /// The longest edge of the rendition a result's `url` serves.
    package static let imageEdge = 1280
    /// The longest edge of the rendition a result's `thumbnail` serves.
    package static let thumbnailEdge = 640

    /// The rendition of longest edge `edge` of the picture result id `id` names, or nil for an id this catalogue did
    /// not make or a size it does not serve.
    package func image(id: String, edge: Int) -> SampleImage? {
        guard [Self.imageEdge, Self.thumbnailEdge].contains(edge), let picture = Self.picture(forID: id) else {
            return nil
        }
        return images.image(theme: picture.theme, number: picture.number, size: edge)
    }

    /// The theme and picture number encoded in a result id this catalogue made, or nil for any other text.
    package static func picture(forID id: String) -> (theme: String, number: Int)? {
        ids.picture(in: id)
    }

    /// The results' ids, salted so that no media-coverage thumbnail id passes for one of these.
    private static let ids = PictureUUID(salt: "openverse-id:")

    /// A version-4-shaped UUID from `seed` whose last group encodes the picture.
    static func uuid(seed: UInt64, theme: String, number: Int) -> String {
        ids.make(seed: seed, theme: theme, number: number)
    }

    /// The deed of `license` on creativecommons.org (`https://creativecommons.org/licenses/by-sa/4.0/`,
    /// `https://creativecommons.org/publicdomain/zero/1.0/`), or nil for a code Openverse does not know.
    package static func licenseURL(_ license: String, version: String?) -> String? {
        switch license {
        case "cc0": "https://creativecommons.org/publicdomain/zero/1.0/"
        case "pdm": "https://creativecommons.org/publicdomain/mark/1.0/"
        case _ where OpenverseLicenseFilter.knownLicenses.contains(license):
            "https://creativecommons.org/licenses/\(license)/\(version ?? "4.0")/"
        default: nil
        }
    }

    /// The attribution sentence Openverse's API writes for a result, built as it builds it:
    /// `"TITLE" by CREATOR is licensed under CC BY-SA 4.0. To view a copy of this license, visit URL.`, with
    /// "This work" for a missing or empty title, no "by" without a creator, "is marked with" and "the terms" for
    /// `cc0` and `pdm`, and no second sentence without a license URL.
    package static func attribution(
        title: String?, creator: String?, license: String, version: String?, licenseURL: String?
    ) -> String {
        let isPublicDomain = license == "cc0" || license == "pdm"
        var name = license == "pdm" ? "Public Domain Mark" : license.uppercased()
        if let version, !version.isEmpty {
            name += " \(version)"
        }
        if !isPublicDomain {
            name = "CC \(name)"
        }
        let work = title.map { $0.isEmpty ? "This work" : "\"\($0)\"" } ?? "This work"
        let by = creator.map { $0.isEmpty ? "" : "by \($0)" } ?? ""
        let verb = isPublicDomain ? "is marked with" : "is licensed under"
        let legal =
            licenseURL.map { "To view \(isPublicDomain ? "the terms" : "a copy of this license"), visit \($0)." } ?? ""
        let sentence = "\(work) \(by) \(verb) \(name). \(legal)"
        return sentence.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "  ", with: " ")
    }
}
