import Foundation

@testable import VitrineRender

/// Reads a written site the way a browser and a link checker would.
struct SiteInspector {
    /// `links` of `page`, resolved to paths from the output root.
    static func resolved(_ links: [String], from page: String) -> [String] {
        let base = URL(fileURLWithPath: "/" + page).deletingLastPathComponent()
        return links.map { String(base.appendingPathComponent($0).standardizedFileURL.path.dropFirst()) }
    }

    let root: URL

    func page(_ relative: String) throws -> LibXMLDocument {
        try LibXMLDocument.parseHTML([UInt8](Data(contentsOf: root.appendingPathComponent(relative))))
    }

    /// Every local reference of a page (links, images, styles, scripts), resolved to a path from the root.
    func references(of relative: String) throws -> [String] {
        let html = try page(relative)
        let raw =
            html.strings("//a/@href") + html.strings("//img/@src") + html.strings("//link/@href")
            + html.strings("//style/@data-href") + html.strings("//script/@src")
            + html.strings("//img/@srcset").flatMap(Self.candidateURLs(ofSrcset:))
        let base = root.appendingPathComponent(relative).deletingLastPathComponent()
        return raw.filter { !$0.isEmpty && !$0.hasPrefix("#") && !$0.contains(":") }
            .map { reference in
                let withoutFragment = String(
                    reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
                let resolved = base.appendingPathComponent(withoutFragment).standardizedFileURL.path
                return String(resolved.dropFirst(root.standardizedFileURL.path.count + 1))
            }
    }

    /// The URLs of a `srcset`, as HTML reads them: a candidate's URL runs to the next white space (commas inside it
    /// are its own, as in "Dusk_at_Veddel,_2023.jpg"), and its descriptors run to the next comma.
    static func candidateURLs(ofSrcset srcset: String) -> [String] {
        var urls: [String] = []
        var expectsURL = true
        for token in srcset.split(whereSeparator: \.isWhitespace) {
            if expectsURL {
                let url = token.reversed().drop { $0 == "," }.reversed()
                if !url.isEmpty { urls.append(String(url)) }
                expectsURL = token.hasSuffix(",")
            } else if token.hasSuffix(",") {
                expectsURL = true
            }
        }
        return urls
    }

    /// Crawls from index.html; returns every HTML page reached and every reference that does not resolve.
    func crawl() throws -> (pages: Set<String>, broken: [String], files: Set<String>) {
        var pages: Set<String> = []
        var files: Set<String> = []
        var broken: [String] = []
        var queue = ["index.html"]
        while let next = queue.popLast() {
            guard pages.insert(next).inserted else { continue }
            for reference in try references(of: next) {
                let exists = FileManager.default.fileExists(atPath: root.appendingPathComponent(reference).path)
                if !exists || reference.hasPrefix("..") {
                    broken.append("\(next) -> \(reference)")
                } else if reference.hasSuffix(".html") {
                    queue.append(reference)
                } else {
                    files.insert(reference)
                }
            }
        }
        return (pages, broken, files)
    }

    /// Follows rel=next from `start`; returns the chain of pages and whether every rel=prev points back.
    func nextChain(from start: String) throws -> (chain: [String], prevMatches: Bool) {
        var chain = [start]
        var prevMatches = true
        while true {
            let current = chain.last!
            let next = try relative(of: current, rel: "next")
            guard let next else { break }
            if try relative(of: next, rel: "prev") != current { prevMatches = false }
            guard !chain.contains(next) else { break }
            chain.append(next)
        }
        return (chain, prevMatches)
    }

    private func relative(of page: String, rel: String) throws -> String? {
        guard let href = try self.page(page).strings("//a[@rel='\(rel)']/@href").first else { return nil }
        let base = root.appendingPathComponent(page).deletingLastPathComponent()
        let resolved = base.appendingPathComponent(href).standardizedFileURL.path
        return String(resolved.dropFirst(root.standardizedFileURL.path.count + 1))
    }
}
