import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineModel
@testable import VitrineRender
@testable import VitrineSources

/// `gallery.xml` and `site.xml`, which libxml2 writes as `ModelXML` walks a model, hold what the pages are rendered
/// from: the tree `ModelDocument` builds from the same walk, whatever text the model holds.
@Suite struct ModelXMLTests {
    /// Characters every escaping rule of libxml2's serializer applies to: markup, quotes, tabs and line ends,
    /// UTF-8 of two, three and four bytes, and characters XML cannot hold (which `XMLText` drops).
    static let alphabet: [Unicode.Scalar] = [
        "a", "Z", "0", " ", "<", ">", "&", "\"", "'", ";", "#", "\t", "\n", "\r", "é", "€", "“", "\u{FFFD}", "😀",
        "\u{10FFFF}", "\u{7}", "\u{1B}", "\u{0}", "\u{7F}", "\u{85}", "\u{FFFE}", "\u{2028}",
    ]

    /// Strings of up to 12 characters of `alphabet`, the same ones every run.
    static func texts(count: Int) -> [String] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        return ["", "plain"]
            + (0..<count).map { _ in
                String(String.UnicodeScalarView((0..<next(13)).map { _ in alphabet[next(alphabet.count)] }))
            }
    }

    /// A gallery with `texts` in every text and attribute the model has: a nested collection, a cover, a missing
    /// entry, a failed image, a site link and notices.
    func gallery(_ texts: [String]) -> GalleryModel {
        var cursor = 0
        func text() -> String {
            cursor += 1
            return texts[cursor % texts.count]
        }
        func image() -> GalleryModel.LocalImage {
            cursor % 3 == 0
                ? .init(state: .unavailable(reason: text()), width: 10, height: 20)
                : .init(state: .available(path: "images/" + text(), mediaType: text()), width: 640, height: 427)
        }
        func item(_ position: Int) -> GalleryModel.Item {
            let entries = [
                GalleryModel.Entry(
                    id: "i\(position)-a", variant: "a", href: text(),
                    content: .picture(
                        caption: text(), credit: Credit(name: text(), url: text(), role: .publication), tile: image(),
                        full: image(),
                        license: License(id: text(), name: text(), label: text(), url: text(), copies: .forbidden),
                        aiGenerated: position % 2 == 0)),
                GalleryModel.Entry(id: "i\(position)-b", variant: "b", href: text(), content: .missing(reason: text())),
            ]
            return .init(
                id: "i\(position)", position: position, page: (position + 1) / 2, sourceID: text(), entries: entries)
        }
        let nested = GalleryModel.Collection(
            id: "c2", title: text(), tileShape: .square, pages: [.init(id: "c2-p1", number: 1, href: text())],
            collections: [], items: [item(1)], kind: .album, subtitle: text(), sourceID: text(), cover: image())
        return GalleryModel(
            title: text(), language: text(),
            source: SourceDescription(name: text(), label: text(), home: text()),
            notices: [.init(kind: .stale, text: text()), .init(kind: .warning, text: text())],
            variants: [
                SourceVariant(key: "a", label: text(), query: text()),
                SourceVariant(key: "b", label: text(), query: nil),
            ],
            site: .init(title: text(), href: text()),
            collections: [
                GalleryModel.Collection(
                    id: "c1", title: text(),
                    pages: [.init(id: "c1-p1", number: 1, href: text()), .init(id: "c1-p2", number: 2, href: text())],
                    collections: [nested], items: (1...3).map(item), kind: .list, subtitle: text())
            ])
    }

    /// Bytes as text, for messages that show where two differ.
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// The file holds the model the pages are rendered from: read back, it is the tree `ModelDocument` builds.
    func expectTheRenderedModel(in file: [UInt8], tree: LibXMLDocument, _ comment: Comment? = nil) throws {
        let read = try LibXMLDocument.parse(file, droppingIndentation: true)
        #expect(text(read.serialized()) == text(tree.serialized()), comment)

    }

    @Test func aGalleryFileHoldsTheModelThePagesAreRenderedFrom() throws {
        for model in [sampleGallery(), sampleHierarchy()] {
            try expectTheRenderedModel(in: ModelFile.bytes(of: model), tree: ModelDocument.make(model))
        }
        let texts = Self.texts(count: 400)
        for start in stride(from: 0, to: texts.count, by: 40) {
            let model = gallery(Array(texts[start..<min(start + 40, texts.count)]))
            try expectTheRenderedModel(
                in: ModelFile.bytes(of: model), tree: ModelDocument.make(model), "texts from \(start)")
        }
    }

    @Test func siteAndRandomPageFilesHoldTheirModels() throws {
        let texts = Self.texts(count: 12)
        var site = SiteModel(
            title: texts[5], language: texts[6],
            galleries: [SiteModel.card(for: sampleGallery(), id: "g1"), SiteModel.card(for: gallery(texts), id: "g2")],
            feedHref: "feed.xml")
        site.galleries[1].queries = texts
        site.galleries[1].every = UpdateInterval(seconds: 600)
        try expectTheRenderedModel(in: ModelFile.bytes(of: site), tree: ModelDocument.make(site))
        for delivery in [ImageUsagePolicy.Delivery.download, .hotlink] {
            var page = RandomPageModelTests().model(delivery)
            page.caption = texts[7]
            page.fields[0].value = texts[8]
            try expectTheRenderedModel(in: ModelFile.bytes(of: page), tree: ModelDocument.make(page), "\(delivery)")
        }
    }

    @Test func theFileIsIndentedAndKeepsUTF8() throws {
        let file = text(try ModelFile.bytes(of: sampleGallery(hostileCaption: "tab\there “ü”")))
        #expect(
            file.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gallery version=\"1\" lang=\"en\">\n  <title>")
        )
        #expect(file.contains("<caption>tab\there “ü”</caption>"))
    }
}
