import ArgumentParser

/// A gallery command's own options: what its subcommand parses from the command line, and what a `[[gallery]]`
/// table of `vitrine build` holds under the same names.
protocol GalleryOptions: ParsableArguments {
    /// The `source` value that names these options in a config file.
    static var sourceName: String { get }
    /// The environment variable an API key comes from, if the source takes one.
    static var keyVariable: String? { get }
    /// The keys a `[[gallery]]` table of this source takes besides `source` and `path`: the argument's name and
    /// the long names of the options and flags, each with how the command line takes it. The API key and
    /// ``refusedKeys`` are not among them.
    static var configKeys: [String: ConfigKeyKind] { get }
    /// Options a site config may not give, with the reason.
    static var refusedKeys: [String: String] { get }
    /// The folder a site build gives the gallery when its table names none.
    var folderName: String { get }
    /// The gallery to build, with the secrets to keep out of messages.
    func setup(folder: String, environment: [String: String]) -> GallerySetup
}

extension GalleryOptions {
    static var refusedKeys: [String: String] { [:] }
}
