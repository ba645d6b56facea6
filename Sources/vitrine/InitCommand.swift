import ArgumentParser
import VitrineBasics

/// `vitrine init [DIR]`: a new site's `vitrine.toml` and the GitHub Actions workflow that publishes it.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Start a site: a commented vitrine.toml and a GitHub Actions workflow that publishes it daily.",
        discussion: """
            Writes two files into DIR, creating it if missing. vitrine.toml is the site's config with every key \
            explained and two galleries that need no API key (Flickr's public feed for "Hamburg" and a random Lorem \
            Picsum photo a day), so that vitrine build works at once. \(InitCommand.workflowPath) is the daily \
            publish to GitHub Pages of Vitrine's docs/ci.md: it restores Vitrine's cache and the previous site, \
            builds and deploys; set its OWNER/vitrine to where Vitrine's repository lives, and add the API keys \
            as repository secrets.

            Nothing is overwritten: when either file is already there, or a symbolic link is there or on the way \
            (DIR itself included), nothing is written and the run ends with one sentence naming it (exit status 73). Each file is \
            written whole or not at all.
            """
    )

    /// Where the workflow goes below DIR; docs/ci.md names the same path on its first line.
    static let workflowPath = ".github/workflows/gallery.yml"

    @Argument(help: ArgumentHelp("The site's folder.", valueName: "dir"))
    var directory = "."

    func validate() throws {
        try PathArgument.requireNonEmpty(directory, "The site's folder")
    }

    func run() throws {
        try StarterFiles.write(
            NewFiles(
                folder: directory,
                files: [
                    NewFiles.File(path: "vitrine.toml", bytes: PackageResources.vitrine_toml),
                    NewFiles.File(path: Self.workflowPath, bytes: PackageResources.gallery_yml),
                ]))
        let enter = directory == "." ? "" : "cd \(StarterFiles.shellWord(directory)) && "
        StandardStreams.output(
            Array(
                """
                Next: \(enter)vitrine build && vitrine serve
                To publish with GitHub Actions, set OWNER/vitrine in \(Self.workflowPath) to Vitrine's \
                repository and add your API keys as repository secrets.

                """.utf8))
    }
}
