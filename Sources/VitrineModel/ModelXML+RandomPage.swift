import VitrineBasics
import VitrineSources

extension ModelXML {
    /// The model of the random-image page and the favorites page.
    package static func write(_ page: RandomPageModel, to sink: inout some ModelXMLSink) {
        sink.startElement("gallery")
        sink.attribute("version", version)
        sink.cleanAttribute("lang", page.language)
        sink.textElement("title", page.title)
        write(page.source, to: &sink)
        for notice in page.notices { write(notice, to: &sink) }
        if let site = page.site { write(site, to: &sink) }
        sink.startElement("random")
        sink.attribute("id", "random")
        sink.cleanAttribute("href", page.folder + RandomPageModel.pageHref)
        sink.cleanAttribute("favorites", page.folder + RandomPageModel.favoritesHref)
        sink.attribute("delivery", page.delivery.rawValue)
        sink.attribute("fetched-at", RandomPageModel.timestamp(page.fetchedAt))
        sink.attribute("next-update", RandomPageModel.timestamp(page.nextUpdate))
        sink.attribute("every", String(page.every.seconds))
        sink.startElement("photo")
        sink.cleanAttribute("source-id", page.photoID)
        sink.textElement("caption", page.caption)
        sink.startElement("credit")
        sink.cleanAttribute("name", page.credit.author)
        if let url = page.credit.authorURL { sink.cleanAttribute("href", url) }
        if let url = page.credit.sourceURL { sink.cleanAttribute("source-href", url) }
        sink.endElement()
        write(page.license, to: &sink)
        for (index, image) in page.images.enumerated() {
            sink.startElement("image")
            sink.attribute("role", index == page.images.count - 1 ? "full" : "tile")
            switch image.location {
            case .file(let path, let mediaType):
                sink.cleanAttribute("src", path)
                sink.cleanAttribute("type", mediaType)
            case .remote(let url):
                sink.cleanAttribute("url", url)
            }
            sink.sizeAttributes(width: image.width, height: image.height)
            sink.endElement()
        }
        for field in page.fields {
            var pairs = [("key", field.key), ("label", field.label)]
            if let href = field.href { pairs.append(("href", href)) }
            sink.textElement("field", field.value, attributes: pairs)
        }
        sink.endElement()
        sink.endElement()
        sink.startElement("favorites")
        sink.attribute("id", "favorites")
        sink.cleanAttribute("href", page.folder + RandomPageModel.favoritesHref)
        sink.endElement()
        sink.endElement()
    }
}
