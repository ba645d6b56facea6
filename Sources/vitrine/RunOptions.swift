import ArgumentParser

/// When a run counts as failed, how long it may last, and what it prints.
struct RunOptions: ParsableArguments {
    @Flag(
        name: .long,
        help:
            "Exit 2, leaving the output folder as it was, when the gallery lacks anything: a failed image, a skipped result, stale results."
    )
    var strict = false

    @Option(name: .long, help: ArgumentHelp("Stop the whole run after this many seconds.", valueName: "s"))
    var deadline: Int?

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @Flag(name: .long, help: "Print a JSON build report on stdout (status, counts, warnings).")
    var json = false

    func validate() throws {
        if let deadline, deadline <= 0 { throw ValidationError("--deadline must be positive.") }
    }
}
