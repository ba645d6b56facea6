import ArgumentParser
import Foundation
import SampleAPI

struct SampleAPICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample-api",
        abstract: "Run the bundled sample API (Pixabay's shape, sample images) on 127.0.0.1 until interrupted.",
        discussion: """
            --fault injects the failures real APIs have, for trying Vitrine against them by hand:
            TARGET[,q=TEXT]:KIND[:COUNT], TARGET one of api, flickr, feed, thumbnails, picsum, unsplash, images, all; KIND one of delay=MS, a status code, 429,
            retry-after=S, retry-after-date=S, truncate, reset, wrong-type, oversized=SIZE, stall=S,
            malformed-json, hostile; COUNT the first N matching requests (default: every one).
            Examples: api:429:3, images:500, all:delay=50, api,q=graffiti:hostile.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The port; 0 picks a free one.", valueName: "n"))
    var port: UInt16 = 8717

    @Option(name: .long, help: ArgumentHelp("A fault to inject (repeatable; see above).", valueName: "spec"))
    var fault: [String] = []

    func run() async throws {
        let faults: [SampleAPIFault]
        do {
            faults = try fault.map(SampleAPIFault.parse)
        } catch {
            throw ValidationError("\(error)")
        }
        let server = SampleAPIServer(configuration: SampleAPIConfiguration(faults: faults))
        try await server.start(port: port)
        let endpoint = await server.pixabayEndpoint
        let banner =
            "Sample API listening on \(endpoint) (key: \(SampleAPIServer.demoKey)); Lorem Picsum at "
            + "\(await server.picsumEndpoint), Unsplash at \(await server.unsplashEndpoint); Ctrl-C stops it.\n"
        FileHandle.standardOutput.write(Data(banner.utf8))
        while !Task.isCancelled { try await Task.sleep(for: .seconds(3600)) }
    }
}
