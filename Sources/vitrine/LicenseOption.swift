import ArgumentParser
import VitrineSources

extension LicenseChoice: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

/// `--license`: which licenses a gallery shows, the same for every gallery command and `license` in vitrine.toml.
enum LicenseOption {
    static let help = ArgumentHelp(
        "Which photos to show by license: any (the default; those that may not be copied are shown from the API's "
            + "own URL, never downloaded), reusable (only licenses that allow copies), or a comma-separated list of "
            + "license ids or labels such as 4,9 or \"CC BY 2.0\".",
        valueName: "any|reusable|list")

    /// Refuses, in one sentence naming the option, a choice that would leave a source whose every picture has
    /// `license` with no picture.
    static func validate(_ choice: LicenseChoice, fixed license: License, source: String) throws {
        do {
            try choice.check(fixed: license, source: source)
        } catch {
            throw ValidationError(sentence(for: error))
        }
    }

    /// The sentence of a license choice that cannot be followed, naming the option.
    static func sentence(for error: LicenseChoiceError) -> String {
        error.sentence(choiceNamed: { choice in
            let text = choice.description
            return "--license " + (text.contains(" ") ? "\"\(text)\"" : text)
        })
    }
}
