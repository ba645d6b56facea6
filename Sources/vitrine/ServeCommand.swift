import ArgumentParser
import Dispatch
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a gallery folder on 127.0.0.1 for a local look, until interrupted.",
        discussion: """
            Only files inside DIR are served (no hidden files, no '..'); a folder serves its index.html. A request \
            line over 8 KiB is answered 414 and headers over 16 KiB or 100 lines 431, so no request can pin the \
            server; Ctrl-C or SIGTERM stops it at once, without waiting for requests in flight.
            """
    )

    @Argument(help: "The folder to serve.")
    var directory = "Output"

    @Option(name: .long, help: ArgumentHelp("The port; 0 picks a free one.", valueName: "n"))
    var port: UInt16 = 8080

    func validate() throws {
        try PathArgument.requireNonEmpty(directory, "The folder to serve")
    }

    func run() async throws {
        let root = URL(fileURLWithPath: directory).standardizedFileURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("\(directory) is not a folder.")
        }
        let files = StaticFolderFiles(root: root)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let server = try await ListeningPort.bind(Int(port)) {
            try await ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 64)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: false)
                        try channel.pipeline.syncOperations.addHandler(StaticFolderHTTPHandler(files: files))
                    }
                }
                .bind(host: "127.0.0.1", port: Int(port)).get()
        }
        let boundPort = server.localAddress?.port ?? Int(port)
        let banner = "Serving \(directory) at http://127.0.0.1:\(boundPort)/ ; Ctrl-C stops it.\n"
        StandardStreams.output(Array(banner.utf8))
        // Nothing is written while serving, so a signal ends the process at once: no request in flight can hold
        // it up.
        let stops = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                server.close(promise: nil)
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { Foundation.exit(0) }
            }
            source.resume()
            return source
        }
        defer { stops.forEach { $0.cancel() } }
        try await server.closeFuture.get()
        try? await group.shutdownGracefully()
    }
}
