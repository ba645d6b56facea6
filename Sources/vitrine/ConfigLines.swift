import Foundation

/// Where keys stand in a TOML file, for messages (the parser does not report positions of values).
struct ConfigLines {
    private var topLevel: [String: Int] = [:]
    private var galleries: [(header: Int, keys: [String: Int])] = []

    init(_ text: String) {
        enum Section { case top, gallery, other }
        var section = Section.top
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            let number = offset + 1
            if line.hasPrefix("[[") {
                let name = line.dropFirst(2).prefix { $0 != "]" }.trimmingCharacters(in: .whitespaces)
                section = name == "gallery" ? .gallery : .other
                if section == .gallery { galleries.append((number, [:])) }
                continue
            }
            if line.hasPrefix("[") {
                section = .other
                continue
            }
            guard let equals = line.firstIndex(of: "="), !line.hasPrefix("#") else { continue }
            var key = line[..<equals].trimmingCharacters(in: .whitespaces)
            if key.count >= 2, key.hasPrefix("\"") || key.hasPrefix("'") { key = String(key.dropFirst().dropLast()) }
            switch section {
            case .top: topLevel[key] = topLevel[key] ?? number
            case .gallery: galleries[galleries.count - 1].keys[key] = galleries[galleries.count - 1].keys[key] ?? number
            case .other: break
            }
        }
    }

    func topLevelLine(of key: String) -> Int? { topLevel[key] ?? (key == "gallery" ? galleries.first?.header : nil) }

    func galleryHeader(_ index: Int) -> Int? { index < galleries.count ? galleries[index].header : nil }

    func line(of key: String, inGallery index: Int) -> Int? {
        index < galleries.count ? galleries[index].keys[key] : nil
    }
}
