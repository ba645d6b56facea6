import Foundation

/// One element of an Openverse image search's `results`, with exactly the members `api.openverse.org/v1/images/`
/// sends, in its order (``json``). Members Openverse may send as `null` are optionals.
package struct OpenverseImage: Sendable, Equatable, Decodable {
    /// A UUID, stable per search term and position.
    package var id: String
    /// Null on one result and empty on another (see ``OpenverseCatalog``'s hostile indexes).
    package var title: String?
    /// `2024-05-01T12:00:00Z`.
    package var indexedOn: String
    /// The work's page at its provider: a Flickr photo page, a Wikimedia Commons file page, a museum's object page.
    package var foreignLandingURL: String
    /// The 1,280-pixel rendition, `{baseURL}/openverse/images/{id}.jpg`, but on one result a URL of another host.
    package var url: String
    /// The creator's name; null on one result.
    package var creator: String?
    /// The creator's page at the provider, null on some results, and on one `javascript:alert(1)`.
    package var creatorURL: String?
    /// A lowercase license code (`by-nc-sa`, `cc0`, `pdm`), or on one result a code no client knows.
    package var license: String
    /// `4.0`, `3.0` or `2.0`; `1.0` for `cc0` and `pdm`; null with the unknown license.
    package var licenseVersion: String?
    /// The license's deed on creativecommons.org; null with the unknown license.
    package var licenseURL: String?
    /// `flickr`, `wikimedia` or `smithsonian`.
    package var provider: String
    /// The provider, or for `smithsonian` the museum (`smithsonian_cooper_hewitt_museum`).
    package var source: String
    /// `photograph` or null.
    package var category: String?
    /// The byte count of the 1,280-pixel rendition, or null.
    package var filesize: Int?
    /// `jpg`.
    package var filetype: String
    /// The term's words and some of the picture's; empty on one result.
    package var tags: [OpenverseTag]
    /// Openverse's attribution sentence, built as its API builds it
    /// (``OpenverseCatalog/attribution(title:creator:license:version:licenseURL:)``).
    package var attribution: String
    /// `["title"]`.
    package var fieldsMatched: [String]
    /// Whether the work was reported as sensitive (``OpenverseCatalog/isMature(at:)``).
    package var mature: Bool
    /// The height of the 1,280-pixel rendition.
    package var height: Int
    /// The width of the 1,280-pixel rendition.
    package var width: Int
    /// The 640-pixel rendition, `{baseURL}/v1/images/{id}/thumb/`.
    package var thumbnail: String
    /// `{baseURL}/v1/images/{id}/`, which the sample API does not serve.
    package var detailURL: String
    /// `{baseURL}/v1/images/{id}/related/`, which the sample API does not serve.
    package var relatedURL: String
    /// `[]`, or `["user_reported_sensitive"]` for a mature result.
    package var unstableSensitivity: [String]

    enum CodingKeys: String, CodingKey {
        case id, title
        case indexedOn = "indexed_on"
        case foreignLandingURL = "foreign_landing_url"
        case url, creator
        case creatorURL = "creator_url"
        case license
        case licenseVersion = "license_version"
        case licenseURL = "license_url"
        case provider, source, category, filesize, filetype, tags, attribution
        case fieldsMatched = "fields_matched"
        case mature, height, width, thumbnail
        case detailURL = "detail_url"
        case relatedURL = "related_url"
        case unstableSensitivity = "unstable__sensitivity"
    }

    /// The result as Openverse writes it: every member, in Openverse's order, `null` where a value is missing.
    var json: OrderedJSON {
        func optional(_ value: String?) -> OrderedJSON { value.map(OrderedJSON.string) ?? .null }
        return .object([
            ("id", .string(id)), ("title", optional(title)), ("indexed_on", .string(indexedOn)),
            ("foreign_landing_url", .string(foreignLandingURL)), ("url", .string(url)),
            ("creator", optional(creator)), ("creator_url", optional(creatorURL)), ("license", .string(license)),
            ("license_version", optional(licenseVersion)), ("license_url", optional(licenseURL)),
            ("provider", .string(provider)), ("source", .string(source)), ("category", optional(category)),
            ("filesize", filesize.map(OrderedJSON.int) ?? .null), ("filetype", .string(filetype)),
            ("tags", .array(tags.map(\.json))), ("attribution", .string(attribution)),
            ("fields_matched", .array(fieldsMatched.map(OrderedJSON.string))), ("mature", .bool(mature)),
            ("height", .int(height)), ("width", .int(width)), ("thumbnail", .string(thumbnail)),
            ("detail_url", .string(detailURL)), ("related_url", .string(relatedURL)),
            ("unstable__sensitivity", .array(unstableSensitivity.map(OrderedJSON.string))),
        ])
    }
}

/// One of an ``OpenverseImage``'s `tags`: `{"accuracy": null, "name": "harbour"}`, or with the accuracy of a
/// machine-generated tag (`0.93`).
package struct OpenverseTag: Sendable, Equatable, Decodable {
    /// Null for a tag the creator gave; between 0 and 1 for one a recogniser gave.
    package var accuracy: Double?
    /// The tag.
    package var name: String

    var json: OrderedJSON {
        .object([("accuracy", accuracy.map(OrderedJSON.double) ?? .null), ("name", .string(name))])
    }
}

/// The body of a successful Openverse image search.
package struct OpenverseSearchPage: Sendable, Equatable, Decodable {
    /// How many results the search has, filters applied.
    package var resultCount: Int
    /// `ceil(resultCount / pageSize)`, at most 20 for anonymous use.
    package var pageCount: Int
    /// The `page_size` asked for (20 unless given).
    package var pageSize: Int
    /// The page asked for, from 1.
    package var page: Int
    /// The page's results, at most `pageSize`.
    package var results: [OpenverseImage]

    enum CodingKeys: String, CodingKey {
        case resultCount = "result_count"
        case pageCount = "page_count"
        case pageSize = "page_size"
        case page, results
    }

    /// `{"result_count": …, "page_count": …, "page_size": …, "page": …, "results": […]}`.
    var json: OrderedJSON {
        .object([
            ("result_count", .int(resultCount)), ("page_count", .int(pageCount)), ("page_size", .int(pageSize)),
            ("page", .int(page)), ("results", .array(results.map(\.json))),
        ])
    }
}

/// What an Openverse search keeps: the results whose license is in ``licenses``, when there is such a set.
package struct OpenverseLicenseFilter: Sendable, Equatable {
    /// Every license code Openverse knows, in the order of its documentation.
    package static let knownLicenses = ["by", "by-sa", "by-nd", "by-nc", "by-nc-sa", "by-nc-nd", "cc0", "pdm"]
    /// `license_type=commercial`: the licenses that allow commercial use.
    package static let commercial: Set<String> = ["by", "by-sa", "by-nd", "cc0", "pdm"]
    /// `license_type=modification`: the licenses that allow changes.
    package static let modification: Set<String> = ["by", "by-sa", "by-nc", "by-nc-sa", "cc0", "pdm"]

    /// The licenses a result may have to be kept; nil keeps every result, the unknown license included.
    package var licenses: Set<String>?

    /// The filter of `license` (a comma list of codes, any case) and `license_type` (`commercial`, `modification`
    /// or both, comma-separated). Each one given narrows the set, as Openverse's groups do: a license type keeps only
    /// the licenses of its group, so it leaves out a license no group names. A code or type Openverse does not know
    /// matches nothing and is not an error.
    package init(license: String?, licenseType: String?) {
        func codes(_ parameter: String?) -> [String] {
            (parameter ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                .filter { !$0.isEmpty }
        }
        var licenses: Set<String>?
        let named = codes(license)
        if !named.isEmpty {
            licenses = Set(named)
        }
        for type in codes(licenseType) {
            let group: Set<String> =
                switch type {
                case "commercial": Self.commercial
                case "modification": Self.modification
                default: []
                }
            licenses = (licenses ?? group).intersection(group)
        }
        self.licenses = licenses
    }

    /// Whether a result under `license` is kept.
    package func keeps(_ license: String) -> Bool {
        licenses?.contains(license) ?? true
    }
}
