import VitrineModel

extension ShardRecord.Gallery {
    /// What is wrong with the search entries the record carries for the site's index, if anything: a merge refuses
    /// entries that do not link the gallery's own pages, each once, or whose pictures are neither the shard's
    /// images nor web addresses, or that are longer than Vitrine writes. Their text is written as data
    /// (`SearchIndex.json`) whatever it holds.
    func problem(ofSearch images: Set<String>) -> String? {
        guard let entries = search else { return nil }
        let files = Set(files)
        guard entries.count <= files.count else { return "list more entries than the gallery has pages" }
        var pages = Set<String>()
        for entry in entries {
            guard entry.page.hasSuffix(".html"), files.contains(entry.page), pages.insert(entry.page).inserted else {
                return "link a page twice or one that is not the gallery's"
            }
            guard entry.image.isEmpty || images.contains(entry.image) || ShardReader.isWebAddress(entry.image) else {
                return "show a picture that is neither the shard's nor a web address"
            }
            guard (0...100_000).contains(entry.width), (0...100_000).contains(entry.height),
                entry.caption.count <= SearchIndex.maximumCaption, entry.words.count <= SearchIndex.maximumWords
            else { return "hold a size or a text out of range" }
        }
        return nil
    }
}
