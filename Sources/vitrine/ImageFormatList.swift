import Foundation
import VitrinePipeline

/// The list of re-encoded formats a build is asked for (`--formats avif,webp`, `formats = ["avif", "webp"]`).
enum ImageFormatList {
    /// Why a list is refused, as the end of a sentence that starts with where it was given.
    struct Problem: Error {
        let problem: String
    }

    /// The formats of a comma-separated list, in its order.
    static func parse(_ text: String) throws(Problem) -> [ReencodedFormat] {
        try parse(text.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
    }

    /// The formats `names` names, in their order: each one Vitrine writes, once.
    static func parse(_ names: [String]) throws(Problem) -> [ReencodedFormat] {
        let known = ReencodedFormat.allCases.map(\.rawValue).joined(separator: " and ")
        var formats: [ReencodedFormat] = []
        for raw in names {
            let name = raw.trimmingCharacters(in: .whitespaces).lowercased()
            guard let format = ReencodedFormat(rawValue: name) else {
                let shown = String(
                    raw.unicodeScalars.filter {
                        $0.properties.generalCategory != .control && $0.properties.generalCategory != .format
                    }.prefix(40))
                throw Problem(problem: "takes \(known), comma-separated; “\(shown)” is not one of them")
            }
            guard !formats.contains(format) else { throw Problem(problem: "names \(name) twice") }
            formats.append(format)
        }
        guard !formats.isEmpty else { throw Problem(problem: "names no format; give avif, webp or both") }
        return formats
    }
}
