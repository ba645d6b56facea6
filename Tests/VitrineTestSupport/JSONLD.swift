import Foundation

/// The JSON-LD data blocks of a page, read as the tests check them.
package enum JSONLD {
    /// Whether the page's inline scripts (their `type` attributes and texts, in document order) are all JSON-LD data
    /// blocks: of type `application/ld+json`, JSON objects with the schema.org context, and without a "<" that
    /// could end the script early. Pages may hold no other inline script.
    package static func onlyDataBlocks(types: [String], texts: [String]) -> Bool {
        types.count == texts.count && types.allSatisfy { $0 == "application/ld+json" }
            && texts.allSatisfy { object($0)?["@context"] as? String == "https://schema.org" && !$0.contains("<") }
    }

    /// The JSON object a data block holds, or nil when it is not one.
    package static func object(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }
}
