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

/// `--declared-license`: the license the site declares for a source that names none (the thumbnail list,
/// JSONPlaceholder, Flickr's public feed), the same for each of their commands and `declared-license` in
/// vitrine.toml.
enum DeclaredLicenseOption {
    static let help = ArgumentHelp(
        "The license of every picture of a source that names none, when you know it (your own API, your own "
            + "pictures): own (the site's own pictures), or a Creative Commons license or public-domain tool by its "
            + "label, id or URL, such as \"CC BY 4.0\", cc-by-sa-4.0, CC0 or PDM. The pages say the site declares "
            + "it, and the pictures are downloaded and cached (default: none; they are shown from their own URLs).",
        valueName: "own|license")

    /// The license `text` declares, or a sentence saying what the option takes.
    static func parse(_ text: String) throws -> License {
        guard let license = License.declaredBySite(text) else {
            throw ValidationError(
                "--declared-license takes own, or a Creative Commons license or public-domain tool by its label, id "
                    + "or URL (such as \"CC BY 4.0\", cc-by-sa-4.0, CC0 or PDM); “\(text.prefix(100))” is not one.")
        }
        return license
    }
}
