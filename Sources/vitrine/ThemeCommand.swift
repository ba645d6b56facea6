import ArgumentParser
import VitrineBasics
import VitrineTemplates

/// `vitrine theme`: the commands about themes (today one, `export`).
struct ThemeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "theme",
        abstract: "Start a theme of your own from the built-in one.",
        subcommands: [ThemeExportCommand.self]
    )
}

/// `vitrine theme export DIR`: the built-in theme written into a folder, for editing and `--templates DIR`.
struct ThemeExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the built-in theme into a folder, to edit and use with --templates.",
        discussion: """
            Writes every file of the built-in theme into DIR, creating it if missing: the XSLT stylesheets of the \
            pages, vitrine.css, the scripts and gallery.rng (the schema of the model the stylesheets read), and \
            README.md, which lists what a theme must hold, the parameters its stylesheets get and the rules they \
            run under (a theme's .md files are not read). Give the folder to any gallery command or to vitrine \
            build with --templates DIR: until you change a file, the output is byte for byte that of the built-in \
            theme.

            Nothing is overwritten: when any of these files is already in DIR, or a symbolic link is there or on \
            the way (DIR itself included), nothing is written and the run ends with one sentence naming it (exit status 73). Each file \
            is written whole or not at all.
            """
    )

    @Argument(help: ArgumentHelp("The folder to write the theme into.", valueName: "dir"))
    var directory: String

    func validate() throws {
        try PathArgument.requireNonEmpty(directory, "The folder to write the theme into")
    }

    func run() throws {
        var theme = DefaultTheme.files
        theme["README.md"] = DefaultTheme.guide
        let files = theme.sorted { $0.key < $1.key }.map { NewFiles.File(path: $0.key, bytes: $0.value) }
        try StarterFiles.write(NewFiles(folder: directory, files: files))
        let folder = StarterFiles.shellWord(directory)
        StandardStreams.output(
            Array("Next: edit the files, then build with them: vitrine build --templates \(folder)\n".utf8))
    }
}
