import ArgumentParser

/// Where the cache is and how a run uses it.
struct CacheOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The cache folder (default: $XDG_CACHE_HOME/vitrine or ~/.cache/vitrine).", valueName: "dir"))
    var cache: String?

    @Flag(name: .long, help: "Use only the cache; never touch the network.")
    var offline = false

    @Flag(name: .long, help: "Ask the API again even when cached responses are fresh (under 24 hours old).")
    var refresh = false

    func validate() throws {
        try PathArgument.requireNonEmpty(cache, "--cache")
        if offline && refresh { throw ValidationError("--offline and --refresh contradict each other; pick one.") }
    }
}
