import Foundation

/// The Flickr and media-coverage routes.
///
/// Flickr's `format` and `nojsoncallback` are accepted but not checked: every response is plain JSON, as for
/// `format=json&nojsoncallback=1` (no `jsonFlickrApi(…)` wrapper, no XML or Atom).
extension SampleAPIRouter {
    static let thumbnailsPath: [Substring] = ["v2", "content", "misc", "media-coverages"]

    /// `/services/rest/`: `flickr.photos.search`, `flickr.photos.getRecent` and `flickr.photos.licenses.getInfo`, each
    /// with the `api_key` checked; every failure is HTTP 200 with `{"stat":"fail",…}`.
    ///
    /// A search honours `license=ID,ID,…` (see ``FlickrCatalog/page(of:page:perPage:extras:licenses:baseURL:)``);
    /// `flickr.photos.getRecent` ignores it, as Flickr's does.
    func flickrREST(_ query: [String: String], baseURL: String) -> SampleAPIResponse {
        let method = query["method"] ?? ""
        let listing: FlickrListing?
        switch method {
        case "flickr.photos.getRecent":
            listing = .recent
        case "flickr.photos.search":
            listing = .search(FlickrCatalog.searchTerm(text: query["text"], tags: query["tags"]))
        case "flickr.photos.licenses.getInfo":
            listing = nil
        default:
            return .json(FlickrFailure.unknownMethod(method).json)
        }
        guard query["api_key"] == configuration.flickrKey else {
            return .json(FlickrFailure.invalidKey.json)
        }
        guard let listing else {
            return .json(FlickrLicensesResponse(licenses: FlickrCatalog.licenses).json)
        }
        let perPage = min(Self.positive(query["per_page"]) ?? FlickrCatalog.defaultPerPage, FlickrCatalog.maxPerPage)
        let page = Self.positive(query["page"]) ?? 1
        if case .search(let term) = listing {
            guard !term.isEmpty else {
                return .json(FlickrFailure.parameterlessSearch.json)
            }
            guard page <= FlickrCatalog.searchLimit / perPage else {
                return .json(FlickrFailure.excessiveOffset.json)
            }
        }
        let extras = (query["extras"] ?? "").split(separator: ",").map(String.init)
        let licenses = listing == .recent ? nil : FlickrCatalog.licenseFilter(query["license"])
        let list = flickr.page(
            of: listing, page: page, perPage: perPage, extras: extras, licenses: licenses, baseURL: baseURL)
        return .json(list.responseJSON)
    }

    /// `/services/feeds/photos_public.gne`: the latest items for `tags` (`tagmode` is accepted and ignored), with
    /// every `'` escaped as `\'` like the real feed.
    func flickrFeed(_ query: [String: String], baseURL: String) -> SampleAPIResponse {
        let feed = flickr.feed(tags: query["tags"], baseURL: baseURL)
        return SampleAPIResponse(status: 200, headers: ["Content-Type": "application/json"], body: feed.quirkyBody)
    }

    func flickrImage(server: Substring, file: Substring) -> SampleAPIResponse {
        guard let image = flickr.image(server: String(server), file: String(file)) else {
            return .text(404, "No such Flickr photo: \(server)/\(file)")
        }
        return jpeg(image, servedAs: "\(server)/\(file)")
    }

    /// `/api/v2/content/misc/media-coverages?limit=N`: a JSON array; `limit` defaults to 100 (also when it is not
    /// a whole number) and is clamped to `0...300`, digits too many for an `Int` included.
    func thumbnailList(_ query: [String: String], baseURL: String) -> SampleAPIResponse {
        let text = query["limit"]?.trimmingCharacters(in: .whitespaces) ?? ""
        let isDigits = !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber }
        let limit = Int(text) ?? (isDigits ? ThumbnailCatalog.maxCount : nil)
        let coverages = thumbnails.coverages(limit: limit, baseURL: baseURL)
        return .json(.array(coverages.map(\.json)))
    }

    func thumbnailImage(imageID: Substring, quality: Substring) -> SampleAPIResponse {
        guard let number = Self.decimal(quality), String(number) == quality,
            let image = thumbnails.image(imageID: String(imageID), quality: number)
        else {
            return .text(404, "No such thumbnail: \(imageID)/\(quality)")
        }
        return jpeg(image, servedAs: "\(imageID)/\(quality)")
    }

    /// A whole number above zero, or nil for anything else (missing, empty, zero, negative, not a number).
    private static func positive(_ value: String?) -> Int? {
        guard let value, let number = Int(value), number > 0 else { return nil }
        return number
    }
}
