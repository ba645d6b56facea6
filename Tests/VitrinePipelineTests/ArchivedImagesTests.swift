import Foundation
import Synchronization
import Testing
import VitrineBasics
import VitrineHTTP
import VitrineModel
import VitrineTestSupport

@testable import VitrinePipeline
@testable import VitrineStore

/// Issue 24, item 11: the image URLs of a previous `history.json` were downloaded from any host.
@Suite struct ArchivedImagesTests {
    /// Answers every request with `body` and keeps the URLs it was asked for.
    final class RecordingFetcher: HTTPFetching {
        let body: [UInt8]
        private let log = Mutex<[String]>([])

        init(body: [UInt8]) { self.body = body }

        var asked: [String] { log.withLock { $0 } }

        func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
            log.withLock { $0.append(request.url) }
            return FetchResponse(status: 200, body: body, effectiveURL: request.url)
        }
    }

    func resolve(_ urls: [String], hosts: ArchiveImageHosts) async throws -> (
        outcomes: [String: ImageOutcome], asked: [String]
    ) {
        let folder = try TemporaryFolder()
        let bytes = [UInt8](RandomPipelineTests.jpeg)
        let fetcher = RecordingFetcher(body: bytes)
        let archived = ArchivedImages(
            cache: CacheStore(root: folder.url), fetcher: fetcher, recovery: nil, previous: nil, offline: false,
            maximumBytes: 1 << 20)
        let images = urls.map {
            SiteHistory.ArchivedImage(
                url: $0, sha256: SHA256Hasher.hex(of: bytes), type: "image/jpeg", bytes: bytes.count, width: nil,
                height: nil)
        }
        return (await archived.resolve(images, hosts: hosts).outcomes, fetcher.asked)
    }

    @Test func onlyTheOriginsOfTheSourcesEndpointAndCurrentImagesAreAsked() async throws {
        let hosts = ArchiveImageHosts(
            endpoints: ["http://127.0.0.1:8080/api/"], imageURLs: ["https://cdn.example/current.jpg"])
        let allowed = [
            "http://127.0.0.1:8080/get/1.jpg", "https://cdn.example/archived.jpg", "HTTPS://CDN.Example:443/x.jpg",
        ]
        let refused = [
            "http://127.0.0.1:8081/get/1.jpg", "http://localhost:8080/get/1.jpg", "http://[::1]:8080/get/1.jpg",
            "http://2130706433:8080/get/1.jpg", "http://10.0.0.7/x.jpg", "http://192.168.1.1:8080/x.jpg",
            "https://elsewhere.example/x.jpg", "http://cdn.example/x.jpg", "https://cdn.example:8443/x.jpg",
        ]
        let (outcomes, asked) = try await resolve(allowed + refused, hosts: hosts)
        #expect(Set(asked) == Set(allowed))
        for url in allowed {
            guard case .stored = outcomes[url] else {
                Issue.record("\(url) was not kept: \(String(describing: outcomes[url]))")
                continue
            }
        }
        for url in refused { #expect(outcomes[url] == .failed(reason: ArchivedImages.refusedHost), "\(url)") }
        let warning = ArchivedImages.refusalWarning(outcomes, folder: "hamburg/")
        #expect(warning?.hasPrefix("9 image URLs of items no longer in the results of hamburg/ were not") == true)
    }

    /// A public source whose answer lists an image on a private address does not open the way inward.
    @Test func aPublicSourceNeverReachesInwardWhateverItsAnswersList() async throws {
        let hosts = ArchiveImageHosts(
            endpoints: ["https://pixabay.com/api/"],
            imageURLs: ["http://10.0.0.7/current.jpg", "http://127.0.0.1/current.jpg", "https://cdn.pixabay.com/a.jpg"])
        let (outcomes, asked) = try await resolve(
            ["http://10.0.0.7/archived.jpg", "http://127.0.0.1/archived.jpg", "https://cdn.pixabay.com/b.jpg"],
            hosts: hosts)
        #expect(asked == ["https://cdn.pixabay.com/b.jpg"])
        #expect(outcomes["http://10.0.0.7/archived.jpg"] == .failed(reason: ArchivedImages.refusedHost))
        #expect(outcomes["http://127.0.0.1/archived.jpg"] == .failed(reason: ArchivedImages.refusedHost))
    }

    @Test(arguments: [
        ("localhost", true), ("a.localhost", true), ("127.0.0.1", true), ("127.8.9.10", true), ("0.0.0.0", true),
        ("10.1.2.3", true), ("172.16.0.1", true), ("172.31.255.255", true), ("192.168.0.1", true),
        ("169.254.169.254", true), ("100.64.0.1", true), ("2130706433", true), ("0x7f.1", true), ("[::1]", true),
        ("::", true), ("[fd00::1]", true), ("[fe80::1]", true), ("[::ffff:10.0.0.1]", true), ("172.32.0.1", false),
        ("8.8.8.8", false), ("cdn.pixabay.com", false), ("[2606:4700::1111]", false), ("100.128.0.1", false),
    ])
    func tellsInwardHostsFromPublicOnes(host: String, inward: Bool) {
        #expect(ArchiveImageHosts.isInward(host: host) == inward)
    }
}
