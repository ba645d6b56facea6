import ArgumentParser

/// How many transfers run at once, how long they may take, how often they are retried and how much they may bring.
struct NetworkOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Concurrent transfers.", valueName: "n"))
    var jobs = 8

    @Option(
        name: .long, help: ArgumentHelp("Retries of a failed transfer (connection, timeout, 5xx, 429).", valueName: "n")
    )
    var retries = 4

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for a connection.", valueName: "s"))
    var connectTimeout = 15

    @Option(
        name: .long,
        help: ArgumentHelp("Seconds a transfer may stall (under 100 bytes/s) before it fails.", valueName: "s"))
    var stallTimeout = 30

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Seconds a transfer may take in all (connection, redirects, body) before it fails.", valueName: "s"))
    var transferTimeout = 300

    @Option(name: .long, help: ArgumentHelp("The largest image accepted (K, M, G suffixes).", valueName: "size"))
    var maxImageSize = ByteSize(bytes: 40 << 20)

    @Option(name: .long, help: ArgumentHelp("The largest API response accepted.", valueName: "size"))
    var maxResponseSize = ByteSize(bytes: 16 << 20)

    func validate() throws {
        guard (1...64).contains(jobs) else { throw ValidationError("--jobs must be between 1 and 64.") }
        guard (0...20).contains(retries) else { throw ValidationError("--retries must be between 0 and 20.") }
        guard connectTimeout > 0, stallTimeout > 0, transferTimeout > 0 else {
            throw ValidationError("Timeouts must be positive.")
        }
    }
}
