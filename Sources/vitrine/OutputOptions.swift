import ArgumentParser
import VitrinePipeline

/// Where a run writes: the output folder, its theme, and how it treats a folder that is not its own or is busy.
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The output folder.", valueName: "dir"))
    var out: String = "Output"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A theme folder to use instead of the built-in one (see Templates/README.md).", valueName: "dir"))
    var templates: String?

    @Flag(
        name: .long,
        help: "Write into an output folder that holds files Vitrine did not write (it never replaces them).")
    var force = false

    @Flag(
        name: .long,
        help: "Exit 75 at once instead of waiting when another run is writing into the same output folder.")
    var noWait = false

    @Flag(
        name: .long,
        help:
            "Keep the gallery's history in the output (history.json): a snapshot whenever the results change, and a What's new page."
    )
    var history = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The previous publish's history.json (a path, a folder or an http(s) URL), read when the output folder has none; implies --history.",
            valueName: "path-or-url"))
    var historyFrom: String?

    @Flag(
        name: .long,
        help:
            "When the output folder has no history.json, start a new history instead of reading the previous publish's (a site's first publish); implies --history."
    )
    var newHistory = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Also offer every downloaded JPEG and PNG re-encoded as avif, webp or both (comma-separated, in the order browsers are to prefer them), each made once and kept in the cache; needs libvips (Debian's libvips42).",
            valueName: "list"))
    var formats: String?

    func validate() throws {
        _ = try imageFormats()
        try PathArgument.requireNonEmpty(out, "--out")
        try PathArgument.requireNonEmpty(templates, "--templates")
        try PathArgument.requireNonEmpty(historyFrom, "--history-from")
        if newHistory && historyFrom != nil {
            throw ValidationError(
                "--new-history starts a history and --history-from names the previous one to continue; pick one.")
        }
        _ = try previousHistory()
    }

    /// The history settings these options ask for, with `configured` (the site config's `history = true`).
    func historyOptions(configured: Bool = false) throws(ValidationError) -> HistoryOptions? {
        guard history || configured || historyFrom != nil || newHistory else { return nil }
        return HistoryOptions(previous: try previousHistory(), startNew: newHistory)
    }

    /// Where `--history-from` says the previous history is; nil without it.
    private func previousHistory() throws(ValidationError) -> HistorySource? {
        guard let historyFrom else { return nil }
        do {
            return try HistorySource(argument: historyFrom)
        } catch {
            throw ValidationError(
                "--history-from must name an http(s) URL or a history file in an existing folder (--new-history "
                    + "starts a new history on purpose), and “\(error.value)” does not: \(error.problem).")
        }
    }
}

extension OutputOptions {
    /// The formats `--formats` names, in its order; nil without it.
    func imageFormats() throws(ValidationError) -> [ReencodedFormat]? {
        guard let formats else { return nil }
        do {
            return try ImageFormatList.parse(formats)
        } catch {
            throw ValidationError("--formats \(error.problem)")
        }
    }
}
