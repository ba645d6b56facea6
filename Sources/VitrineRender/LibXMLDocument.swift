internal import CXSLT
import Foundation

/// Owns one libxml2 document: the gallery model, a parsed stylesheet source, or an HTML page under test.
package final class LibXMLDocument {
    let raw: xmlDocPtr
    private var owned = true

    /// Takes ownership of `raw`; it is freed when this object goes.
    init(owning raw: xmlDocPtr) {
        self.raw = raw
    }

    deinit { if owned { xmlFreeDoc(raw) } }

    /// Another owner (a compiled stylesheet) frees the document from now on.
    func relinquishOwnership() { owned = false }

    /// Parses XML without touching the network and without expanding external entities; `droppingIndentation`
    /// leaves out the text nodes of whitespace between elements.
    static func parse(
        _ bytes: [UInt8], url: String = "memory.xml", droppingIndentation: Bool = false
    ) throws(XMLError) -> LibXMLDocument {
        try LibXML.collectingErrors { () -> LibXMLDocument? in
            let options = Int32(
                XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue
                    | (droppingIndentation ? XML_PARSE_NOBLANKS.rawValue : 0))
            return bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.flatMap { base in
                    base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                        xmlReadMemory($0, Int32(buffer.count), url, "UTF-8", options)
                    }
                }.map(LibXMLDocument.init(owning:))
            }
        }
    }

    /// Parses HTML leniently, as a browser would, for inspecting rendered pages.
    static func parseHTML(_ bytes: [UInt8]) throws(XMLError) -> LibXMLDocument {
        try LibXML.collectingErrors { () -> LibXMLDocument? in
            let options = Int32(
                HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue)
            return bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.flatMap { base in
                    base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                        htmlReadMemory($0, Int32(buffer.count), "page.html", "UTF-8", options)
                    }
                }.map(LibXMLDocument.init(owning:))
            }
        }
    }

    /// The document as indented UTF-8 XML. libxml2 fails to write it only without memory (see ``XMLTree``).
    package func serialized() -> [UInt8] {
        var output: UnsafeMutablePointer<xmlChar>?
        var length: Int32 = 0
        xmlDocDumpFormatMemoryEnc(raw, &output, &length, "UTF-8", 1)
        guard let output else { fatalError("libxml2 is out of memory (xmlDocDumpFormatMemoryEnc failed)") }
        defer { vitrine_xml_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }

    /// The string values of every node an XPath 1.0 expression selects (attributes, text, elements).
    func strings(_ expression: String) -> [String] {
        guard let context = xmlXPathNewContext(raw) else { return [] }
        defer { xmlXPathFreeContext(context) }
        guard let result = xmlXPathEvalExpression(expression, context) else { return [] }
        defer { xmlXPathFreeObject(result) }
        if result.pointee.type == XPATH_STRING {
            return [result.pointee.stringval.map { String(cString: $0) } ?? ""]
        }
        if result.pointee.type == XPATH_NUMBER { return [String(result.pointee.floatval)] }
        guard let nodes = result.pointee.nodesetval else { return [] }
        return (0..<Int(nodes.pointee.nodeNr)).compactMap { index in
            guard let node = nodes.pointee.nodeTab[index], let content = xmlNodeGetContent(node) else { return nil }
            defer { vitrine_xml_free(content) }
            return String(cString: content)
        }
    }

    /// Validation messages against a RELAX NG schema; empty when the document is valid.
    func relaxNGErrors(schema: [UInt8]) -> [String] {
        let buffer = XMLErrorBuffer()
        // Runs last: the contexts keep the buffer's address until they are freed.
        defer { withExtendedLifetime(buffer) {} }
        let parser = schema.withUnsafeBufferPointer { pointer in
            pointer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: pointer.count) {
                xmlRelaxNGNewMemParserCtxt($0, Int32(pointer.count))
            }
        }
        guard let parser else { return ["the schema could not be read"] }
        defer { xmlRelaxNGFreeParserCtxt(parser) }
        vitrine_collect_relaxng_parser_errors(parser, buffer.pointer)
        guard let compiled = xmlRelaxNGParse(parser) else { return ["the schema is invalid: \(buffer.message)"] }
        defer { xmlRelaxNGFree(compiled) }
        guard let validator = xmlRelaxNGNewValidCtxt(compiled) else { return ["out of memory"] }
        defer { xmlRelaxNGFreeValidCtxt(validator) }
        vitrine_collect_relaxng_errors(validator, buffer.pointer)
        let result = xmlRelaxNGValidateDoc(validator, raw)
        if result == 0 { return [] }
        let messages = buffer.message.split(separator: "\n").map(String.init)
        return messages.isEmpty ? ["the document is not valid (code \(result))"] : messages
    }
}

@available(*, unavailable)
extension LibXMLDocument: Sendable {}

/// XML that libxml2 could not parse or write.
package struct XMLError: Error, CustomStringConvertible {
    let message: String
    package var description: String { message }
}

/// Process-wide libxml2 set-up and per-call error collection.
public enum LibXML {
    private static let initialised: Bool = {
        TransformMeter.installAllocatorHooks()
        xmlInitParser()
        vitrine_route_xslt_errors_by_thread(messageSlot.key)
        return true
    }()

    /// Sets libxml2 up for the process (its allocator hooks, which bound each template's memory, its parser, and
    /// libxslt's one generic error handler): called first thing in `main`, before any thread uses it, since this
    /// set-up is process-wide. Any other use of the renderer sets it up too, once.
    public static func setUp() { _ = initialised }

    /// Where libxslt's process-wide generic error handler finds the calling thread's ``XMLErrorBuffer``.
    private static let messageSlot = ThreadSlot(for: "libxslt's error messages")

    /// Runs `body` with the calling thread's libxml2 and libxslt messages written into `buffer`: libxml2 keeps its
    /// handlers per thread, and libxslt's one handler writes into the buffer its thread made current. A transform
    /// context's own handler (``CompiledStylesheet``) takes the rest of a transform's messages.
    static func collecting<Result>(into buffer: XMLErrorBuffer, _ body: () throws -> Result) rethrows -> Result {
        _ = initialised
        let previous = messageSlot.value?.assumingMemoryBound(to: vitrine_error_buffer.self)
        vitrine_collect_xml_errors(buffer.pointer)
        defer { vitrine_collect_xml_errors(previous) }
        return try messageSlot.holding(UnsafeMutableRawPointer(buffer.pointer), body)
    }

    /// Runs `body` with libxml2 and libxslt messages collected; nil from `body` becomes an error with them.
    static func collectingErrors<Result>(_ body: () -> Result?) throws(XMLError) -> Result {
        let buffer = XMLErrorBuffer()
        guard let result = collecting(into: buffer, body) else {
            throw XMLError(message: buffer.message.isEmpty ? "unknown XML error" : buffer.message)
        }
        return result
    }
}

/// Owns one thread-specific key (`pthread_key_t`), under which each thread holds a pointer of its own: how the
/// callbacks that libxml2 and libxslt share between threads (allocator hooks, the generic error handler) find the
/// state of the operation running on the thread that called them. It lives as long as the process, at one address,
/// which C code may keep.
final class ThreadSlot: @unchecked Sendable {
    /// Written once, before the slot is shared.
    let key: UnsafeMutablePointer<pthread_key_t>

    /// A new key; `purpose` names it if the process has none left, which ends it.
    init(for purpose: String) {
        key = .allocate(capacity: 1)
        key.initialize(to: pthread_key_t())
        let created = pthread_key_create(key, nil)
        precondition(created == 0, "no thread-specific key for \(purpose): \(String(cString: strerror(created)))")
    }

    /// The calling thread's pointer, if it holds one.
    var value: UnsafeMutableRawPointer? { pthread_getspecific(key.pointee) }

    /// Runs `body` with `value` as the calling thread's pointer, then puts back the one it held.
    func holding<Result>(_ value: UnsafeMutableRawPointer?, _ body: () throws -> Result) rethrows -> Result {
        let previous = self.value
        set(value)
        defer { set(previous) }
        return try body()
    }

    /// `pthread_setspecific` fails only for a key that was never created or without memory for the thread's second
    /// table of keys: neither leaves a way to go on.
    private func set(_ value: UnsafeMutableRawPointer?) {
        let result = pthread_setspecific(key.pointee, value)
        precondition(result == 0, "a thread-specific value could not be set: \(String(cString: strerror(result)))")
    }
}

/// Owns the memory libxml2 and libxslt write their messages into through the error handlers it is given to: the
/// handlers keep its address after the call that sets them returns, so it lives on the heap, not in a `var` whose
/// `&` is valid only for that call.
final class XMLErrorBuffer {
    let pointer: UnsafeMutablePointer<vitrine_error_buffer>

    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: vitrine_error_buffer())
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    /// The collected messages as text.
    var message: String {
        let length = min(pointer.pointee.length, MemoryLayout.size(ofValue: pointer.pointee.text))
        return withUnsafeBytes(of: &pointer.pointee.text) { raw in
            String(decoding: raw.prefix(length), as: UTF8.self)
        }.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

@available(*, unavailable)
extension XMLErrorBuffer: Sendable {}
