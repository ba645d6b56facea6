import Foundation

/// The JSONPlaceholder routes (`/users`, `/users/N/albums`, `/albums`, `/albums/N/photos`, `/photos`) with
/// json-server's filters and paging.
extension SampleAPIRouter {
    /// Whether `components` is one of the JSONPlaceholder list routes.
    static func isJSONPlaceholderList(_ components: [Substring]) -> Bool {
        switch (components.first, components.count) {
        case ("users", 1), ("albums", 1), ("photos", 1): true
        case ("users", 3): components[2] == "albums"
        case ("albums", 3): components[2] == "photos"
        default: false
        }
    }

    /// Answers a JSONPlaceholder list route: the records, filtered by every query parameter that does not start
    /// with `_` (`userId=1`), then sliced by `_page`/`_limit` (with `Link` and `X-Total-Count`) or by
    /// `_start`/`_end`/`_limit`, as json-server does. A nested route of an unknown parent is an empty list.
    func jsonPlaceholderList(
        _ components: [Substring], query: [String: String], path: String, baseURL: String
    ) -> SampleAPIResponse {
        let catalog = JSONPlaceholderCatalog()
        var filters = query.filter { !$0.key.hasPrefix("_") }
        switch (components[0], components.count) {
        case ("users", 3): filters["userId"] = String(components[1])
        case ("albums", 3): filters["albumId"] = String(components[1])
        default: break
        }
        // The parent's own records first (the filters below still apply), not all 5,000 photos every time.
        var records: [OrderedJSON]
        switch components.count == 3 ? (components[2] == "albums" ? "albums" : "photos") : components[0] {
        case "users": records = catalog.users()
        case "albums": records = filters["userId"].flatMap { Int($0) }.map(catalog.albums(ofUser:)) ?? catalog.albums()
        default: records = filters["albumId"].flatMap { Int($0) }.map(catalog.photos(ofAlbum:)) ?? catalog.photos()
        }
        records = records.filter { record in
            filters.allSatisfy { name, value in record.member(name)?.plainText == value }
        }
        var response = SampleAPIResponse.json(.array([]))
        response.headers["Access-Control-Expose-Headers"] = "X-Total-Count, Link"
        let start = max(0, Int(query["_start"] ?? "") ?? 0)
        let limit = Int(query["_limit"] ?? "")
        if query["_end"] != nil || limit != nil || query["_page"] != nil {
            response.headers["X-Total-Count"] = String(records.count)
        }
        if let pageText = query["_page"] {
            let page = max(1, Int(pageText) ?? 1)
            let perPage = limit.flatMap { $0 > 0 ? $0 : nil } ?? 10
            let paging = Self.paging(count: records.count, page: page, perPage: perPage)
            records = Array(records.dropFirst(min((page - 1) * perPage, records.count)).prefix(perPage))
            if !paging.isEmpty {
                response.headers["Link"] = paging.map { relation, number in
                    var linked = query
                    linked["_page"] = String(number)
                    return "<\(baseURL)\(path)?\(Self.encodeQuery(linked))>; rel=\"\(relation)\""
                }.joined(separator: ", ")
            }
        } else if let end = query["_end"].flatMap({ Int($0) }) {
            records = Array(records[min(start, records.count)..<min(max(end, start), records.count)])
        } else if let limit {
            records = Array(records.dropFirst(start).prefix(max(0, limit)))
        }
        response.body = OrderedJSON.array(records).data
        return response
    }

    /// json-server's page links: first, prev, next, last, for pages that exist around `page`; none when one page
    /// holds everything or `page` is past the end.
    static func paging(count: Int, page: Int, perPage: Int) -> [(String, Int)] {
        let start = (page - 1) * perPage
        guard start < count else { return [] }
        let end = page * perPage
        var links: [(String, Int)] = []
        let isPartial = min(end, count) - start != count
        if isPartial { links.append(("first", 1)) }
        if page > 1 { links.append(("prev", page - 1)) }
        if end < count { links.append(("next", page + 1)) }
        if isPartial { links.append(("last", (count + perPage - 1) / perPage)) }
        return links
    }

    private static func encodeQuery(_ query: [String: String]) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        return query.sorted { $0.key < $1.key }.map { name, value in
            let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
            return "\(encode(name))=\(encode(value))"
        }.joined(separator: "&")
    }
}

extension OrderedJSON {
    /// The value of member `name` of an object.
    func member(_ name: String) -> OrderedJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == name }?.1
    }

    /// A string or a number as the text a query parameter would compare with.
    var plainText: String? {
        switch self {
        case .string(let text): text
        case .int(let number): String(number)
        case .bool(let value): value ? "true" : "false"
        default: nil
        }
    }
}
