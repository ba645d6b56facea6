import VitrineBasics
import VitrineSources

/// A manifest's JSON that does not have the manifest's shape.
struct ManifestShapeError: Error {}

extension OutputManifest {
    /// Maps a parsed manifest onto its types, as tolerant as `JSONDecoder` was with the `Codable` conformance:
    /// optional fields may be missing or null, `galleries` may be missing (older manifests), unknown keys are
    /// ignored, and anything else of the wrong kind fails. Lists keep the order the file has.
    init(json: JSONValue) throws(ManifestShapeError) {
        let root = try Self.object(json)
        let generator = try Self.string(root["generator"])
        let files = try Self.list(root["files"]) { (value) throws(ManifestShapeError) in
            let file = try Self.object(value)
            return File(
                path: try Self.string(file["path"]), sha256: try Self.string(file["sha256"]),
                size: try Self.optionalInteger(file["size"]), inputs: try Self.optionalString(file["inputs"]),
                urls: try Self.optionalList(file["urls"]) { (value) throws(ManifestShapeError) in try Self.string(value)
                })
        }
        let galleries = try Self.optionalList(root["galleries"]) { (value) throws(ManifestShapeError) in
            let gallery = try Self.object(value)
            return Gallery(
                path: try Self.string(gallery["path"]), title: try Self.string(gallery["title"]),
                source: try Self.string(gallery["source"]), sourceLabel: try Self.string(gallery["sourceLabel"]),
                queries: try Self.list(gallery["queries"]) { (value) throws(ManifestShapeError) in
                    try Self.string(value)
                },
                items: try Self.list(gallery["items"]) { (value) throws(ManifestShapeError) in
                    let item = try Self.object(value)
                    return Item(
                        id: try Self.string(item["id"]),
                        credits: try Self.list(item["credits"]) { (value) throws(ManifestShapeError) in
                            let credit = try Self.object(value)
                            return Credit(
                                variant: try Self.string(credit["variant"]), name: try Self.string(credit["name"]),
                                url: try Self.optionalString(credit["url"]))
                        })
                })
        }
        self.init(files: [])
        self.generator = generator
        self.files = files
        self.galleries = galleries ?? []
    }

    private static func object(_ value: JSONValue?) throws(ManifestShapeError) -> JSONObject {
        guard case .object(let object) = value else { throw ManifestShapeError() }
        return object
    }

    private static func string(_ value: JSONValue?) throws(ManifestShapeError) -> String {
        guard case .string(let text) = value else { throw ManifestShapeError() }
        return text
    }

    private static func optionalString(_ value: JSONValue?) throws(ManifestShapeError) -> String? {
        if value == nil || value == .null { return nil }
        return try string(value)
    }

    private static func optionalInteger(_ value: JSONValue?) throws(ManifestShapeError) -> Int? {
        switch value {
        case nil, .null: return nil
        case .number(let number):
            guard let int = number.int else { throw ManifestShapeError() }
            return int
        default: throw ManifestShapeError()
        }
    }

    private static func list<Element>(
        _ value: JSONValue?, _ element: (JSONValue) throws(ManifestShapeError) -> Element
    ) throws(ManifestShapeError) -> [Element] {
        guard case .array(let values) = value else { throw ManifestShapeError() }
        var elements: [Element] = []
        elements.reserveCapacity(values.count)
        for value in values { elements.append(try element(value)) }
        return elements
    }

    private static func optionalList<Element>(
        _ value: JSONValue?, _ element: (JSONValue) throws(ManifestShapeError) -> Element
    ) throws(ManifestShapeError) -> [Element]? {
        if value == nil || value == .null { return nil }
        return try list(value, element)
    }
}
