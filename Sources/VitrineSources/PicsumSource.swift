import Foundation
import Synchronization
import VitrineHTTP
import VitrineStore

/// Lorem Picsum (no key): a random photo from `/seed/{seed}/info` with a fresh random seed, shown through its
/// stable, cacheable `/id/{id}/{width}/{height}` renditions.
public struct PicsumSource: RandomImageSource {
    /// Lorem Picsum itself; the sample API may stand in.
    public static let defaultEndpoint = "https://picsum.photos/"
    /// The widths of the two renditions asked for (never wider than the original).
    static let renditionWidths = [960, 1920]
    /// Picsum refuses sizes above this.
    static let largestEdge = 5000
    /// How many seeds are tried to get another photo than the current one.
    static let attempts = 3

    package var endpoint: String
    private let makeSeed: @Sendable () -> String

    /// `seed` makes the random seeds; the default draws 16 hex digits from the system generator.
    public init(endpoint: String = defaultEndpoint, seed: (@Sendable () -> String)? = nil) {
        self.endpoint = endpoint
        self.makeSeed = seed ?? { String(UInt64.random(in: 0...UInt64.max), radix: 16) }
    }

    /// Lorem Picsum, for the page's credit.
    public var description: SourceDescription {
        SourceDescription(name: "picsum", label: "Lorem Picsum", home: "https://picsum.photos/")
    }

    /// Images may be downloaded and served from the output, with no report of use.
    public var usage: ImageUsagePolicy { .picsum }

    /// The endpoint alone: the seeds are drawn anew each time.
    public var configuration: String { SourceSettings.text("picsum", ["endpoint": endpoint]) }

    /// Asks for `seed`, then `seed-2`, `seed-3` when a seed gives the current photo.
    public func seeded(_ seed: String) -> any RandomImageSource {
        let attempts = SeedAttempts()
        return PicsumSource(endpoint: endpoint) {
            let number = attempts.next()
            return number == 1 ? seed : "\(seed)-\(number)"
        }
    }

    /// Draws a seed and reads its photo's description, trying a few seeds for another photo than `currentID`.
    public func pick(avoiding currentID: String?, using api: any APIResponseLoading) async throws -> RandomPhoto {
        try RemoteURLPolicy.requireEndpoint(endpoint, of: "Lorem Picsum")
        var photo: RandomPhoto?
        for _ in 0..<Self.attempts where photo == nil || photo?.id == currentID {
            let seed = makeSeed()
            let request = FetchRequest(
                url: url("seed/\(Self.pathSafe(seed))/info"), headers: ["Accept": "application/json"],
                maximumBodyBytes: 1 << 20)
            photo = try await api.load(request) { response in
                guard (200..<300).contains(response.status) else {
                    throw Self.error(status: response.status, message: response.bodyText)
                }
                return try Self.decodeInfo(response.body, endpoint: endpoint)
            }
        }
        return photo!
    }

    /// Nil: Lorem Picsum asks for no report of use.
    public func useReport(for photo: RandomPhoto) -> FetchRequest? { nil }

    func url(_ path: String) -> String {
        (endpoint.hasSuffix("/") ? endpoint : endpoint + "/") + path
    }

    static func pathSafe(_ seed: String) -> String {
        let kept = seed.unicodeScalars.filter { $0.isASCII && CharacterSet.alphanumerics.contains($0) }
        return kept.isEmpty ? "vitrine" : String(String.UnicodeScalarView(kept.prefix(64)))
    }

    static func error(status: Int, message: String) -> SourceError {
        let message = message.isEmpty ? "no message" : String(message.prefix(300))
        switch status {
        case 429: return .rateLimited(source: "Lorem Picsum", message: message)
        case 400..<500: return .rejected(source: "Lorem Picsum", status: status, message: message, hint: nil)
        default: return .unavailable(source: "Lorem Picsum", status: status, message: message)
        }
    }

    /// Picsum's photo information, every field read loosely.
    struct Info: Decodable {
        var id, author, url: LooseString?
        var downloadURL: LooseString?
        var width, height: LooseInt?

        enum CodingKeys: String, CodingKey {
            case id, author, url, width, height
            case downloadURL = "download_url"
        }
    }

    /// Reads `{"id","author","width","height","url","download_url"}` (`id` a string, sometimes a number).
    static func decodeInfo(_ body: [UInt8], endpoint: String) throws -> RandomPhoto {
        let info: Info
        do {
            info = try APIAnswer.decode(Info.self, from: body)
        } catch {
            throw SourceError.unreadable(error, source: "Lorem Picsum", document: "the photo information")
        }
        guard let id = info.id?.value, !id.isEmpty, id.count <= 64,
            id.unicodeScalars.allSatisfy({ $0.isASCII && CharacterSet.alphanumerics.contains($0) })
        else {
            throw SourceError.badData(source: "Lorem Picsum", detail: "the photo information has no usable “id”")
        }
        let width = info.width?.dimension
        let height = info.height?.dimension
        let base = endpoint.hasSuffix("/") ? endpoint : endpoint + "/"
        var renditions: [RandomPhoto.Rendition] = []
        if let width, let height {
            for wanted in renditionWidths {
                let scale = min(1, Double(wanted) / Double(width), Double(largestEdge) / Double(height))
                let w = max(1, Int((Double(width) * scale).rounded()))
                let h = max(1, Int((Double(height) * scale).rounded()))
                if renditions.last?.width == w { continue }
                renditions.append(.init(url: "\(base)id/\(id)/\(w)/\(h)", width: w, height: h))
            }
        } else if let download = RemoteURLPolicy.accepted(info.downloadURL?.value) {
            renditions.append(.init(url: download, width: nil, height: nil))
        } else {
            throw SourceError.badData(
                source: "Lorem Picsum", detail: "photo \(id) has neither a size nor a download URL")
        }
        let author = info.author?.value?.trimmingCharacters(in: .whitespacesAndNewlines)
        let page = RemoteURLPolicy.accepted(info.url?.value)
        return RandomPhoto(
            id: id, author: author?.isEmpty == false ? author : nil, authorURL: nil, pageURL: page, caption: nil,
            width: width, height: height, renditions: renditions,
            facts: [RandomPhoto.Fact(label: "Picsum ID", value: id)])
    }
}

/// Numbers the seeds one pick asks for: 1, 2, 3, …
private final class SeedAttempts: Sendable {
    private let count = Atomic<Int>(0)

    func next() -> Int { count.add(1, ordering: .relaxed).newValue }
}
