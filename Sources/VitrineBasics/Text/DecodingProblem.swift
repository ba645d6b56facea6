import Foundation

/// What `JSONDecoder` found wrong with a document, in words: where (a path such as `hits[3].webformatURL`, empty
/// for the document as a whole) and what (missing, null, of another kind, not JSON at all).
package struct DecodingProblem: Error, Sendable, Equatable {
    /// The keys and indices leading to the value, written `hits[3].webformatURL`; empty for the whole document.
    package var path: String
    /// What is wrong with the value, as the end of a sentence whose subject it is: "is missing", "is not a list".
    package var problem: String

    /// The problem of bytes that are not JSON at all.
    static let invalidJSON = "is not valid JSON"

    package init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    /// The bytes are not JSON at all, as opposed to JSON of another shape.
    package var isInvalidJSON: Bool { path.isEmpty && problem == Self.invalidJSON }

    /// The problem on its own: `“hits[3].id” is missing`, or for the whole document `it is not a JSON object`.
    package var summary: String { path.isEmpty ? "it \(problem)" : "“\(path)” \(problem)" }

    /// Reads a `DecodingError`, or keeps a problem a decoder threw; any other error is taken to mean that the bytes
    /// are not JSON.
    package init(_ error: any Error) {
        if let problem = error as? DecodingProblem {
            self = problem
            return
        }
        guard let error = error as? DecodingError else {
            self.init(path: "", problem: Self.invalidJSON)
            return
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(path: Self.path(context.codingPath + [key]), problem: "is missing")
        case .valueNotFound(_, let context):
            self.init(path: Self.path(context.codingPath), problem: "is null")
        case .typeMismatch(let type, let context):
            self.init(path: Self.path(context.codingPath), problem: "is not \(Self.kind(of: type))")
        case .dataCorrupted(let context):
            let path = Self.path(context.codingPath)
            self.init(path: path, problem: path.isEmpty ? Self.invalidJSON : "is not a value Vitrine can read")
        @unknown default:
            self.init(path: "", problem: Self.invalidJSON)
        }
    }

    /// Reads a `DecodingError` about `bytes`. Foundation's decoder reports a number it cannot give as the type
    /// asked for (a fraction where a whole number goes, one out of range) as data that is "not valid JSON"; bytes
    /// that are JSON are then said to hold such a number instead.
    package init(_ error: any Error, in bytes: [UInt8]) {
        self.init(error)
        if isInvalidJSON, (try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)) != nil {
            problem = "holds a number of another kind than expected (a fraction or one out of range)"
        }
    }

    /// The problem said of `document` ("the answer to “Hamburg” page 2"): `the answer … is not valid JSON`, or
    /// `“hits[3].id” in the answer … is missing`.
    package func sentence(about document: String) -> String {
        path.isEmpty ? "\(document) \(problem)" : "“\(path)” in \(document) \(problem)"
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.reduce(into: "") { path, key in
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += (path.isEmpty ? "" : ".") + key.stringValue
            }
        }
    }

    private static func kind(of type: Any.Type) -> String {
        switch String(describing: type) {
        case let name where name.hasPrefix("Dictionary"): "a JSON object"
        case let name where name.hasPrefix("Array"): "a list"
        case "String": "text"
        case "Bool": "true or false"
        case "Int", "Int64", "UInt64", "Double", "Float", "Decimal": "a number"
        default: "of the kind expected"
        }
    }
}
