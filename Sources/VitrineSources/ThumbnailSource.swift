import Foundation
import VitrineHTTP
import VitrineStore

/// A list API whose elements carry `thumbnail {domain, basePath, key, qualities, aspectRatio}` (the media-coverage
/// API): one square-tiled grid of every element, with preview pages.
public struct ThumbnailSource: ImageSource {
    /// The license of every picture of the source. The media-coverage list says nothing of its thumbnails' licenses.
    package static let license = License.unknown
    /// The media-coverage list the source was made for.
    public static let defaultEndpoint = "https://acharyaprashant.org/api/v2/content/misc/media-coverages"
    /// The nominal width given to tiles, whose true size only the aspect ratio tells.
    static let nominalWidth = 640

    package var limit: Int
    package var endpoint: String
    /// The host whose images a history's archive may fetch again.
    public var endpoints: [String] { [endpoint] }
    /// The license the site declares for every thumbnail (`--declared-license`), or nil: the list names none.
    package var declaredLicense: License?

    /// The first `limit` elements of the list at `endpoint`, under `declaredLicense` when the site declares one.
    public init(limit: Int, endpoint: String = defaultEndpoint, declaredLicense: License? = nil) {
        self.limit = limit
        self.endpoint = endpoint
        self.declaredLicense = declaredLicense
    }

    /// The license of every thumbnail: the one the site declares, else unknown.
    var license: License { declaredLicense ?? Self.license }

    /// The endpoint, the limit and the declared license.
    public var configuration: String {
        Self.configuration("thumbnails", ["endpoint": endpoint, "limit": String(limit)])
            + (declaredLicense.map { " " + $0.configuration } ?? "")
    }

    func request() -> FetchRequest {
        var components = URLComponents(string: endpoint) ?? URLComponents()
        var items = (components.queryItems ?? []).filter { $0.name != "limit" }
        items.append(URLQueryItem(name: "limit", value: String(limit)))
        components.setStrictQuery(items)
        return FetchRequest(url: components.string ?? endpoint, maximumBodyBytes: 16 << 20)
    }

    /// Reads the list in one request and makes a tile of each element's thumbnail.
    public func collect(using api: any APIResponseLoading) async throws -> SourceResult {
        try RemoteURLPolicy.requireEndpoint(endpoint, of: "The thumbnail list")
        let ((items, warnings), fetchedAt) = try await api.load(request()) { response in
            guard (200..<300).contains(response.status) else {
                throw (500...599).contains(response.status) || response.status == 429
                    ? SourceError.unavailable(
                        source: "The thumbnail list", status: response.status, message: response.bodyText)
                    : SourceError.rejected(
                        source: "The thumbnail list", status: response.status, message: response.bodyText, hint: nil)
            }
            return (try Self.decode(response.body, license: license), response.fetchedAt)
        }
        let host = URLComponents(string: endpoint)?.host ?? "the thumbnail list"
        return SourceResult(
            title: "Media coverage", source: SourceDescription(name: "thumbnails", label: host, home: nil),
            variants: [SourceVariant(key: "original", label: "Image", query: nil)],
            items: Array(items.prefix(max(0, limit))), fetchedAt: fetchedAt, warnings: warnings,
            skipped: warnings.count)
    }

    /// One element of the list, every field read loosely.
    struct Element: Decodable {
        var id, title, coverageURL, publishedBy: LooseString?
        var thumbnail: Tolerant<Thumbnail>?
    }

    /// Where an element's picture is: `domain/basePath/QUALITY/key`, 0 standing for the original.
    struct Thumbnail: Decodable {
        var id, domain, basePath, key: LooseString?
        var qualities: Tolerant<[LooseInt]>?
        var aspectRatio: LooseDouble?
    }

    static func decode(_ body: [UInt8], license: License = ThumbnailSource.license) throws
        -> (items: [SourceItem], warnings: [String])
    {
        let list: [Tolerant<Element>]
        do {
            list = try APIAnswer.decode([Tolerant<Element>].self, from: body)
        } catch {
            throw SourceError.unreadable(error, source: "The thumbnail list", document: "the answer")
        }
        var items: [SourceItem] = []
        var warnings: [String] = []
        for (index, element) in list.enumerated() {
            switch decodeElement(element.value, license: license) {
            case .success(let item): items.append(item)
            case .failure(let reason): warnings.append("Skipped element \(index + 1) of the thumbnail list: \(reason).")
            }
        }
        return (items, warnings)
    }

    /// An item from an element (nil: the element is not a JSON object).
    static func decodeElement(_ element: Element?, license: License = ThumbnailSource.license) -> Result<
        SourceItem, PixabaySource.SkipReason
    > {
        guard let element, let thumbnail = element.thumbnail?.value else {
            return .failure(.init(description: "it has no “thumbnail” object"))
        }
        guard let domain = thumbnail.domain?.value, let basePath = thumbnail.basePath?.value,
            let key = thumbnail.key?.value, !basePath.isEmpty, !key.isEmpty,
            !basePath.contains(".."), !key.contains("/")
        else { return .failure(.init(description: "“thumbnail” lacks domain, basePath or key")) }
        let base = domain.hasSuffix("/") ? String(domain.dropLast()) : domain
        let full: String
        switch RemoteURLPolicy.checked("\(base)/\(basePath)/0/\(key)") {
        case .success(let url): full = url.text
        case .failure(let refusal): return .failure(.init(description: "its image URL was refused: \(refusal)"))
        }
        let qualities = (thumbnail.qualities?.value ?? []).compactMap(\.value).filter { $0 > 0 }.sorted()
        let tileURL = qualities.last.flatMap { RemoteURLPolicy.accepted("\(base)/\(basePath)/\($0)/\(key)") } ?? full
        let ratio = thumbnail.aspectRatio?.value.flatMap { $0 > 0.05 && $0 < 20 ? $0 : nil }
        let height = ratio.map { max(1, Int((Double(nominalWidth) / $0).rounded())) }
        let tile = RemoteImage(url: tileURL, width: ratio == nil ? nil : nominalWidth, height: height)
        let fullImage = RemoteImage(
            url: full, width: ratio == nil ? nil : nominalWidth * 2, height: height.map { $0 * 2 })
        let id = element.id?.value ?? thumbnail.id?.value ?? ""
        let link = RemoteURLPolicy.accepted(element.coverageURL?.value)
        let publication = element.publishedBy?.value?.trimmingCharacters(in: .whitespacesAndNewlines)
        let credit = publication.flatMap { $0.isEmpty ? nil : Credit(name: $0, url: link, role: .publication) }
        return .success(
            SourceItem(
                sourceID: id,
                entries: [
                    .found(
                        caption: element.title?.value ?? "", credit: credit, tile: tile, full: fullImage,
                        license: license)
                ]))
    }
}
