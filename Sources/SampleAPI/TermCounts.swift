/// How many results each search term of a sample catalogue has: the counts some terms are given (their terms
/// normalised as Pixabay's queries are), and one for every other term, each clamped to `0...maximum`.
struct TermCounts: Sendable {
    private let counts: [String: Int]
    private let standard: Int

    init(_ counts: [String: Int], default standard: Int, maximum: Int) {
        let clamped = { (count: Int) in min(max(count, 0), maximum) }
        var normalised: [String: Int] = [:]
        for (term, count) in counts { normalised[PixabayCatalog.normalize(term)] = clamped(count) }
        self.counts = normalised
        self.standard = clamped(standard)
    }

    /// How many results `term` has.
    func count(for term: String) -> Int {
        counts[PixabayCatalog.normalize(term)] ?? standard
    }
}
