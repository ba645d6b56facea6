import ArgumentParser
import Foundation
import SampleAPI

struct SampleAPICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample-api",
        abstract: "Run the bundled sample API (Pixabay's shape, sample images) on 127.0.0.1 until interrupted."
    )

    @Option(name: .long, help: ArgumentHelp("The port; 0 picks a free one.", valueName: "n"))
    var port: UInt16 = 8717

    func run() async throws {
        let server = SampleAPIServer()
        try await server.start(port: port)
        let endpoint = await server.pixabayEndpoint
        print("Sample API listening on \(endpoint) (key: \(SampleAPIServer.demoKey)); Ctrl-C stops it.")
        while !Task.isCancelled { try await Task.sleep(for: .seconds(3600)) }
    }
}
