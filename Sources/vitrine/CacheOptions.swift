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

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The most the cache keeps (K, M, G suffixes; default: 1G, a tenth of GitHub's cache for a repository): "
                + "after a build that took it over, what it did not use goes, least recently used first, "
                + "until the cache holds 90 % of it.",
            valueName: "size"))
    var cacheMaxSize: ByteSize?

    /// The cache's size when neither the flag nor a config gives one: 1 GiB. A CI job restores and saves the
    /// cache every day, and GitHub keeps 10 GB of caches a repository, evicting the least recently used past that:
    /// a tenth of it leaves room for the day's new key beside the last ones, and takes seconds to restore.
    static let defaultMaximumSize = ByteSize(bytes: 1 << 30)

    func validate() throws {
        try PathArgument.requireNonEmpty(cache, "--cache")
        if offline && refresh { throw ValidationError("--offline and --refresh contradict each other; pick one.") }
    }
}
