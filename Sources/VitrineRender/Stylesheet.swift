internal import CXSLT
import Foundation

/// Owns one compiled XSLT stylesheet; compiled once, applied to every page of its kind.
final class CompiledStylesheet {
    private let raw: xsltStylesheetPtr
    let name: String

    /// Compiles `name` from `theme`; `xsl:import` and `xsl:include` may load only other files of the same theme.
    init(named name: String, from theme: Theme) throws(TemplateError) {
        self.name = name
        guard let bytes = theme.files[name] else { throw TemplateError(template: name, detail: "it is missing") }
        let compiled: xsltStylesheetPtr
        do {
            compiled = try ThemeLoader.withTheme(theme) { () throws(XMLError) -> xsltStylesheetPtr in
                let source = try LibXMLDocument.parse(bytes, url: ThemeLoader.uriPrefix + name)
                return try LibXML.collectingErrors { () -> xsltStylesheetPtr? in
                    guard let style = xsltParseStylesheetDoc(source.raw) else { return nil }
                    if style.pointee.errors > 0 {
                        style.pointee.doc = nil
                        xsltFreeStylesheet(style)
                        return nil
                    }
                    source.relinquishOwnership()
                    return style
                }
            }
        } catch {
            throw TemplateError(template: "\(name) (\(theme.origin))", detail: error.message)
        }
        raw = compiled
    }

    deinit { xsltFreeStylesheet(raw) }

    /// Applies the stylesheet to `model` with string parameters, under security prefs that forbid writing files,
    /// creating folders and any network or file reads, and within `limits` (the transform is stopped at the first
    /// it goes past); returns the serialized result. `page` names the page in messages.
    func apply(
        to model: LibXMLDocument, parameters: [(String, String)], security: XSLTSecurity, limits: TemplateLimits,
        page: String
    ) throws(TemplateError) -> [UInt8] {
        guard let context = xsltNewTransformContext(raw, model.raw) else {
            throw TemplateError(template: name, detail: "out of memory")
        }
        let buffer = XMLErrorBuffer()
        // Runs after the context is freed: the context keeps the buffer's address until then.
        defer { withExtendedLifetime(buffer) {} }
        defer { xsltFreeTransformContext(context) }
        vitrine_collect_transform_errors(context, buffer.pointer)
        guard xsltSetCtxtSecurityPrefs(security.raw, context) == 0 else {
            throw TemplateError(template: name, detail: "its security settings could not be applied to \(page)")
        }
        for (key, value) in parameters where xsltQuoteOneUserParam(context, key, value) != 0 {
            throw TemplateError(template: name, detail: "the parameter \(key) could not be given to it (out of memory)")
        }
        let meter = TransformMeter(limits: limits)
        var output: UnsafeMutablePointer<xmlChar>?
        var length: Int32 = 0
        var isHTML = false
        // libxml2's messages on this thread (an allocation refused at the limit) and those libxslt reports without
        // the context go with the transform's.
        let (transformed, saved) = LibXML.collecting(into: buffer) {
            meter.measuring(context) { () -> (Bool, Bool) in
                let result = xsltApplyStylesheetUser(raw, model.raw, nil, nil, nil, context)
                defer { if let result { xmlFreeDoc(result) } }
                guard let result, context.pointee.state != XSLT_STATE_ERROR,
                    context.pointee.state != XSLT_STATE_STOPPED
                else { return (false, false) }
                isHTML = result.pointee.type == XML_HTML_DOCUMENT_NODE
                return (true, xsltSaveResultToString(&output, &length, result, raw) == 0)
            }
        }
        defer { if let output { vitrine_xml_free(output) } }
        switch meter.hit {
        case .memory:
            throw TemplateError(
                template: name,
                detail: "rendering \(page) needed more than \(limits.memoryText) of memory, the most one page may use, "
                    + "so it was stopped")
        case .time:
            throw TemplateError(
                template: name,
                detail: "rendering \(page) took more than \(limits.secondsText), the most one page may take, so it was "
                    + "stopped")
        case .none:
            break
        }
        guard transformed else {
            let detail = buffer.message.isEmpty ? "the transformation failed" : buffer.message
            throw TemplateError(
                template: name, detail: "rendering \(page) failed: " + detail.replacingOccurrences(of: "\n", with: " "))
        }
        guard saved else { throw TemplateError(template: name, detail: "the result could not be serialized") }
        guard let output else { return [] }
        let bytes = Array(UnsafeBufferPointer(start: output, count: Int(length)))
        return isHTML ? HTMLVoidEndTags.removed(from: bytes) : bytes
    }
}

@available(*, unavailable)
extension CompiledStylesheet: Sendable {}

/// Owns one set of XSLT security prefs: no file writes, no folder creation, no file or network reads.
final class XSLTSecurity {
    let raw: xsltSecurityPrefsPtr

    /// Fails only without memory for them (`xsltNewSecurityPrefs`); `theme` names the theme no page of may then be
    /// rendered.
    init(theme: String) throws(TemplateError) {
        guard let prefs = xsltNewSecurityPrefs() else {
            throw TemplateError(
                template: theme, detail: "libxslt had no memory for the security settings every template runs under")
        }
        raw = prefs
        for option in [
            XSLT_SECPREF_WRITE_FILE, XSLT_SECPREF_CREATE_DIRECTORY, XSLT_SECPREF_READ_NETWORK,
            XSLT_SECPREF_WRITE_NETWORK, XSLT_SECPREF_READ_FILE,
        ] where xsltSetSecurityPrefs(raw, option, xsltSecurityForbid) != 0 {
            throw TemplateError(template: theme, detail: "libxslt refused the security setting \(option.rawValue)")
        }
    }

    deinit { xsltFreeSecurityPrefs(raw) }
}

@available(*, unavailable)
extension XSLTSecurity: Sendable {}

/// Serves `xsl:import`/`xsl:include` from the theme being compiled and refuses every other load
/// (`document()`, external entities, the network). libxslt's loader hook is process-wide, so compilations take turns.
enum ThemeLoader {
    static let uriPrefix = "vitrine-theme:/"
    private static let compileLock = NSLock()
    nonisolated(unsafe) private static var current: Theme?
    private static let installed: Bool = {
        exsltRegisterAll()
        vitrine_set_template_loader(loadTemplate)
        return true
    }()

    static func withTheme<Result>(_ theme: Theme, _ body: () throws(XMLError) -> Result) throws(XMLError) -> Result {
        _ = installed
        compileLock.lock()
        current = theme
        defer {
            current = nil
            compileLock.unlock()
        }
        return try body()
    }

    /// Makes sure no stylesheet can load anything before the first compilation installs the loader.
    static func install() { _ = installed }

    fileprivate static func document(for uri: String, dictionary: xmlDictPtr?) -> xmlDocPtr? {
        guard uri.hasPrefix(uriPrefix), let theme = current else { return nil }
        let name = String(uri.dropFirst(uriPrefix.count))
        guard !name.contains("/"), let bytes = theme.files[name] else { return nil }
        guard let parser = xmlNewParserCtxt() else { return nil }
        defer { xmlFreeParserCtxt(parser) }
        if let dictionary {
            if let own = parser.pointee.dict { xmlDictFree(own) }
            parser.pointee.dict = dictionary
            xmlDictReference(dictionary)
        }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue)
        return bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                xmlCtxtReadMemory(parser, $0, Int32(buffer.count), uri, "UTF-8", options)
            }
        }
    }
}

private let loadTemplate: vitrine_template_loader = { uri, dictionary, _, _, type in
    guard type == XSLT_LOAD_STYLESHEET, let uri else { return nil }
    return ThemeLoader.document(for: String(cString: uri), dictionary: dictionary)
}
