import ArgumentParser

/// Where a run writes: the output folder, its theme, and how it treats a folder that is not its own or is busy.
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The output folder.", valueName: "dir"))
    var out: String = "Output"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A theme folder to use instead of the built-in one (see Templates/README.md).", valueName: "dir"))
    var templates: String?

    @Flag(name: .long, help: "Write into an output folder that holds files Vitrine did not write.")
    var force = false

    @Flag(
        name: .long,
        help: "Exit 75 at once instead of waiting when another run is writing into the same output folder.")
    var noWait = false
}
