import Foundation

/// Which license each photo of a listing has: a stable cycle through Flickr's license table.
extension FlickrCatalog {
    /// The license id (one of ``licenses``) of photo `index` of `listing`, with or without the `license` extra.
    package static func license(at index: Int, in listing: FlickrListing) -> String {
        precondition(index >= 0, "photo index must not be negative")
        return licenseCycle(of: listing)[index % licenseCycleLength]
    }

    /// The ids of a `license=` parameter (`"4,9, 11"`): nil, no filter, when it names none (missing, empty, only
    /// commas); otherwise those of its ids that are in ``licenses``, possibly none, which then matches no photo.
    package static func licenseFilter(_ parameter: String?) -> Set<String>? {
        let ids = (parameter ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard !ids.isEmpty else { return nil }
        let known = Set(licenses.map(\.id))
        return Set(ids.filter { known.contains($0) })
    }

    /// The licenses of photos `0..<60` of `listing`: each block of ten is ``licenseGroups``' pattern shuffled, and
    /// each group hands out its ids, every one equally often, in an order the listing shuffles.
    static func licenseCycle(of listing: FlickrListing) -> [String] {
        let name: String
        switch listing {
        case .recent: name = "recent"
        case .search(let term): name = "search:\(PixabayCatalog.normalize(term))"
        }
        var random = SplitMix64(seed: PixabayCatalog.stableHash("flickr-licenses:\(name)"))
        let blocks = licenseCycleLength / 10
        var pools = licenseGroups.map { group in
            let ids = (0..<blocks * group.perBlock).map { group.ids[$0 % group.ids.count] }
            return shuffled(ids, random: &random)
        }
        let block = licenseGroups.indices.flatMap { Array(repeating: $0, count: licenseGroups[$0].perBlock) }
        var cycle: [String] = []
        for _ in 0..<blocks {
            for group in shuffled(block, random: &random) {
                cycle.append(pools[group].removeLast())
            }
        }
        return cycle
    }

    /// `elements` in an order drawn from `random` (Fisher–Yates written out, unlike the standard library's shuffle,
    /// whose algorithm may change between Swift releases).
    static func shuffled<Element>(_ elements: [Element], random: inout SplitMix64) -> [Element] {
        var elements = elements
        for position in stride(from: elements.count - 1, to: 0, by: -1) {
            elements.swapAt(position, random.next(below: position + 1))
        }
        return elements
    }
}
