import VitrineBasics
import VitrineModel
import VitrineSources

extension ShardRecord {
    /// What a shard's record carries of a gallery's tags, so that the merge makes the site's tag pages as one build
    /// would: how many items a tag page lists, and each item of the results that has tags, with its tags and its
    /// element of the model (`RecordedXML.lines`).
    ///
    /// A merge refuses a record whose tags Vitrine would not have written (`problem(itemCount:files:images:)`) rather than
    /// mending them: a shard writes them normalised, so any other is a damaged or forged record, and a mended one
    /// would make pages that no single build makes.
    struct Tags: Codable, Equatable {
        var perPage: Int
        var items: [Item]

        struct Item: Codable, Equatable {
            var id: String
            var tags: [String]
            var xml: [String]
        }

        /// The record of `tagged` (`GalleryPipeline.Prepared.taggedItems`); nil for a gallery without tag pages.
        init?(_ tagged: (items: [SiteTags.TaggedItem], perPage: Int?)) {
            guard let perPage = tagged.perPage else { return nil }
            self.perPage = perPage
            items = tagged.items.map { Item(id: $0.id, tags: $0.tags, xml: $0.xml.lines) }
        }

        /// What is wrong with the record, if anything, for a gallery of `itemCount` items whose files are `files`,
        /// of a shard whose images are `images`: a page size out of range, more items than the gallery has, an id
        /// twice or not an id, a tag that is not in its normal form (`PictureTags`: too long, control or bidi
        /// characters, upper case), too many or repeated tags, an element that is not one item of the model, or one
        /// that links anything but the gallery's pages, the shard's images and web URLs as they stand
        /// (`problem(ofLinksIn:files:images:)`).
        func problem(itemCount: Int, files: Set<String>, images: Set<String>) -> String? {
            guard (1...1_000).contains(perPage) else { return "have a page size out of range" }
            guard items.count <= itemCount else { return "list more items than the gallery has" }
            var ids = Set<String>()
            for item in items {
                guard !item.id.isEmpty, item.id.utf8.count <= 200, ids.insert(item.id).inserted,
                    !item.id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
                else { return "list an item twice or one that is not an id" }
                guard !item.tags.isEmpty, item.tags.count <= PictureTags.maximumPerPicture,
                    Set(item.tags).count == item.tags.count
                else { return "give an item no tags, too many or one twice" }
                guard item.tags.allSatisfy({ PictureTags.normalise($0) == $0 }) else {
                    return "hold a tag that is not in the form Vitrine writes"
                }
                guard let xml = RecordedXML(lines: item.xml), xml.lines.dropFirst().first == "@id=" + item.id else {
                    return "hold an item that is not one of the model"
                }
                if let problem = Self.problem(ofLinksIn: xml, files: files, images: images) { return problem }
            }
            return nil
        }

        /// What is wrong with the links of a recorded item, if anything: a page's tiles, `srcset` and preload take
        /// them as they are, so a picture's `url` and the links of its credit and license must be web URLs as they
        /// stand (`WebURL`), a picture's files (`src`) images of the shard, and its entries' and tags' pages pages
        /// of the gallery.
        static func problem(ofLinksIn xml: RecordedXML, files: Set<String>, images: Set<String>) -> String? {
            for attribute in xml.attributes {
                switch (attribute.element, attribute.name) {
                case ("image", "url"), ("credit", "href"), ("credit", "author-href"), ("license", "href"):
                    guard WebURL(attribute.value) != nil else {
                        return "hold an item whose \(attribute.element) links what is not a web URL as it stands"
                    }
                case ("image", "src"), ("encoding", "src"):
                    guard images.contains(attribute.value) else {
                        return "hold an item whose picture is not one of the shard's images"
                    }
                case ("entry", "href"), ("tag", "href"):
                    guard files.contains(attribute.value), attribute.value.hasSuffix(".html") else {
                        return "hold an item whose \(attribute.element) links what is not a page of the gallery"
                    }
                default:
                    continue
                }
            }
            return nil
        }

        /// The items, once `problem(itemCount:files:images:)` found none.
        var taggedItems: [SiteTags.TaggedItem] {
            items.compactMap { item in
                RecordedXML(lines: item.xml).map { SiteTags.TaggedItem(id: item.id, tags: item.tags, xml: $0) }
            }
        }
    }
}
