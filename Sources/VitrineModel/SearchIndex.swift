/// The search index of a gallery: a script (`search-index.js`) that hands the search page's script every entry with
/// a picture, in the order of the model, as one call of `vitrineSearchIndex` with a JSON object. Built to be small
/// (at most 60 bytes an entry after gzip, `SearchIndexTests`), so it names no path twice:
///
/// ```
/// vitrineSearchIndex({"v":1,"paths":[["photos/",".html"],["images/",".jpg"]],"items":[
/// [0,"101",1,"3fa9c2d1e0b4a7f6",150,150,"accusamus beatae ad facilis"],
/// [0,"102",1,"77e0b1c2d3a4f5e6",150,150,"Müller am Hafen","muller am hafen","harbour jdoe"]
/// ]});
/// ```
///
/// `paths` are the distinct folders and extensions of the pages' and pictures' paths (relative to the output root,
/// or absolute URLs of pictures shown from their source). An item is its preview page (path index and the name
/// between them), its tile picture (path index, -1 when it has none, and name), the tile's width and height (0 when
/// unknown), its caption as shown, then its caption folded (`SearchFolding`; 0 when that is the caption itself), then
/// the folded words of its tags and credit that the folded caption does not hold; trailing ones left out when empty.
/// A caption is cut to `maximumCaption` characters, the rest to `maximumWords`. Text that a script or a page could
/// take for markup or a line end (`<`, `>`, `&`, U+2028, U+2029, controls) is escaped, so the file is the same
/// data however it is loaded.
package enum SearchIndex {
    /// The name the index script calls with its data, which `vitrine.js` defines.
    package static let callee = "vitrineSearchIndex"
    /// The format's version, `v`.
    package static let version = 1
    /// The longest caption kept, in characters.
    package static let maximumCaption = 200
    /// The longest list of other words kept, in characters.
    package static let maximumWords = 600

    /// One entry of an index, before it is written: its preview page and tile picture (relative to the output root,
    /// or a picture's URL; `image` empty when it has none), the tile's size (0 when unknown), its caption as shown
    /// and the folded words of its tags and credit that its folded caption does not hold.
    package struct Entry: Sendable, Equatable, Codable {
        package var page: String
        package var image: String
        package var width: Int
        package var height: Int
        package var caption: String
        package var words: String

        package init(page: String, image: String, width: Int, height: Int, caption: String, words: String) {
            self.page = page
            self.image = image
            self.width = width
            self.height = height
            self.caption = caption
            self.words = words
        }
    }

    /// A gallery of a site's index: its title and first page, and its entries.
    package struct SiteGallery: Sendable {
        package var title: String
        package var href: String
        package var entries: [Entry]

        package init(title: String, href: String, entries: [Entry]) {
            self.title = title
            self.href = href
            self.entries = entries
        }
    }

    /// The index script of `gallery`.
    package static func script(of gallery: GalleryModel) -> [UInt8] {
        script(ofGallery: entries(of: gallery))
    }

    /// The index script of a gallery whose entries (`entries(of:)`) are `entries`.
    package static func script(ofGallery entries: [Entry]) -> [UInt8] {
        script(of: [(nil, entries)])
    }

    /// The index script of a site (`vitrine build`): every entry of every gallery, in the site's order, each page's
    /// path naming its gallery. Beside `paths` and `items` it holds `galleries`, each gallery's title and first page,
    /// and a path of a page holds its gallery's place in them, third:
    ///
    /// ```
    /// vitrineSearchIndex({"v":1,"galleries":[["Harbours","harbours/index.html"]],
    /// "paths":[["harbours/photos/",".html",0],["images/",".jpg"]],"items":[ … ]});
    /// ```
    package static func script(ofSite galleries: [SiteGallery]) -> [UInt8] {
        script(of: galleries.map { ($0, $0.entries) })
    }

    /// Every entry of `gallery` that has a picture, in the order of the model.
    package static func entries(of gallery: GalleryModel) -> [Entry] {
        var entries: [Entry] = []
        for item in gallery.allItems {
            for entry in item.entries {
                guard case .picture(let caption, let credit, let tile, _, _, _) = entry.content else { continue }
                let image: String =
                    switch tile.state {
                    case .available(let path, _): path
                    case .remote(let url): url
                    case .unavailable: ""
                    }
                let shown = cut(
                    XMLText.clean(caption).split(whereSeparator: \.isWhitespace).joined(separator: " "), maximumCaption)
                var seen = Set(SearchFolding.fold(shown).split(separator: " "))
                var others: [Substring] = []
                let words = entry.tags.map(\.name) + (credit.map { [$0.name] } ?? [])
                for word in SearchFolding.fold(words.joined(separator: " ")).split(separator: " ")
                where seen.insert(word).inserted {
                    others.append(word)
                }
                entries.append(
                    Entry(
                        page: entry.href, image: image, width: tile.width ?? 0, height: tile.height ?? 0,
                        caption: shown, words: cut(others.joined(separator: " "), maximumWords)))
            }
        }
        return entries
    }

    /// The script of `parts`: a gallery's alone (no `SiteGallery`), or a site's.
    private static func script(of parts: [(gallery: SiteGallery?, entries: [Entry])]) -> [UInt8] {
        var paths = PathTable()
        var items = ""
        var first = true
        var galleries: [String] = []
        for (gallery, entries) in parts {
            let number = gallery.map { _ in galleries.count }
            if let gallery { galleries.append("[\(json(gallery.title)),\(json(gallery.href))]") }
            for entry in entries {
                let page = paths.split(entry.page, gallery: number)
                var fields = [String(page.index), json(page.name)]
                if entry.image.isEmpty {
                    fields += ["-1", "\"\""]
                } else {
                    let image = paths.split(entry.image)
                    fields += [String(image.index), json(image.name)]
                }
                fields += [String(entry.width), String(entry.height)]
                let folded = SearchFolding.fold(entry.caption)
                var tail = [json(entry.caption), folded == entry.caption ? "0" : json(folded), json(entry.words)]
                while let last = tail.last, last == "\"\"" || (last == "0" && tail.count == 2) { tail.removeLast() }
                fields += tail
                items += (first ? "\n[" : ",\n[") + fields.joined(separator: ",") + "]"
                first = false
            }
        }
        let table = paths.entries.map {
            "[\(json($0.folder)),\(json($0.suffix))\($0.gallery.map { ",\($0)" } ?? "")]"
        }.joined(separator: ",")
        let site = parts.contains { $0.gallery != nil } ? "\"galleries\":[\(galleries.joined(separator: ","))]," : ""
        let text = "\(callee)({\"v\":\(version),\(site)\"paths\":[\(table)],\"items\":[\(items)\n]});\n"
        return Array(text.utf8)
    }

    /// `text` cut to `limit` characters, without a space at its end.
    static func cut(_ text: String, _ limit: Int) -> String {
        guard text.count > limit else { return text }
        var kept = String(text.prefix(limit))
        while kept.last == " " { kept.removeLast() }
        return kept
    }

    /// `text` as a JSON string that is also safe in any script or page: every character that could end a script,
    /// start markup or end a line in older JavaScript is escaped, and what no page shows (`XMLText.clean` drops it:
    /// bidi controls, C1 controls) is left out, so that a result's text and `alt` are the page's.
    static func json(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars where XMLText.keeps(scalar) {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "<", ">", "&", "\u{2028}", "\u{2029}", "\u{7F}":
                out += "\\u" + hex4(scalar.value)
            default:
                if scalar.value < 0x20 { out += "\\u" + hex4(scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// The distinct folder-and-extension pairs of the paths an index names, in the order first met.
    struct PathTable {
        var entries: [(folder: String, suffix: String, gallery: Int?)] = []
        private var indices: [String: Int] = [:]

        /// `path` as the index of its folder and extension (and of the site's gallery the page is in), and the name
        /// between them.
        mutating func split(_ path: String, gallery: Int? = nil) -> (index: Int, name: String) {
            let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
            let file = path[slash...]
            let dot = file.lastIndex(of: ".") ?? file.endIndex
            let folder = String(path[..<slash])
            let suffix = String(file[dot...])
            let key = folder + "\u{0}" + suffix + "\u{0}" + (gallery.map(String.init) ?? "")
            let index: Int
            if let known = indices[key] {
                index = known
            } else {
                index = entries.count
                indices[key] = index
                entries.append((folder, suffix, gallery))
            }
            return (index, String(file[..<dot]))
        }
    }
}
