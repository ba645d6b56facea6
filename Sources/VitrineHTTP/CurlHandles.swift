internal import CCurl
import Foundation

/// libcurl, loaded into the process and initialised (`curl_global_init`) by the first transfer of a run and kept
/// until it ends: a run that fetches nothing, a rebuild with nothing to change, never loads it or the libraries it
/// needs. Immutable once loaded; its functions are called from any thread as libcurl allows.
final class CurlLibrary: @unchecked Sendable {
    /// The shared object of libcurl 7 and 8 (Debian's libcurl4, which libcurl4-openssl-dev installs).
    static let soname = "libcurl.so.4"

    /// The library, or why it could not be loaded or initialised; loaded at most once, by the first to ask.
    static let shared: Result<CurlLibrary, FetchError> = load(soname)

    /// Its functions; allocated once and never freed, like the library.
    let api: UnsafePointer<VitrineCurl>

    private init(api: UnsafePointer<VitrineCurl>) {
        self.api = api
    }

    /// Loads and initialises the library named `soname`; the failure says what went wrong in a few words.
    static func load(_ soname: String) -> Result<CurlLibrary, FetchError> {
        guard let handle = dlopen(soname, vitrine_curl_open_flags()) else {
            let reason = dlerror().map { String(cString: $0) } ?? "dlopen failed"
            return .failure(.httpUnavailable(reason: "libcurl could not be loaded (\(reason))"))
        }
        var functions = VitrineCurl()
        guard vitrine_curl_bind(handle, &functions) == 1 else {
            dlclose(handle)
            return .failure(.httpUnavailable(reason: "\(soname) lacks a function Vitrine calls"))
        }
        let code = functions.global_init(Int(CURL_GLOBAL_DEFAULT))
        guard code == CURLE_OK else {
            let text = functions.easy_strerror(code).map { String(cString: $0) } ?? "libcurl error \(code.rawValue)"
            return .failure(.httpUnavailable(reason: "libcurl could not be initialised (\(text))"))
        }
        let api = UnsafeMutablePointer<VitrineCurl>.allocate(capacity: 1)
        api.initialize(to: functions)
        return .success(CurlLibrary(api: api))
    }

    /// The libcurl error name and text for a result code.
    func errorText(_ code: CURLcode) -> String {
        api.pointee.easy_strerror(code).map { String(cString: $0) } ?? "libcurl error \(code.rawValue)"
    }

    /// The libcurl error text for a multi interface result code.
    func multiErrorText(_ code: CURLMcode) -> String {
        api.pointee.multi_strerror(code).map { String(cString: $0) } ?? "libcurl multi error \(code.rawValue)"
    }
}

/// Owns one libcurl easy handle, its header list and its error buffer, which must outlive the handle's use.
final class CurlEasyHandle {
    let library: CurlLibrary
    let raw: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// Whether libcurl took the error buffer; without it, failures are described by their code alone.
    private let errorBufferSet: Bool

    init(_ library: CurlLibrary) {
        self.library = library
        guard let handle = library.api.pointee.easy_init() else { fatalError("curl_easy_init failed: out of memory") }
        raw = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        errorBufferSet =
            vitrine_curl_easy_setopt_pointer(library.api, raw, CURLOPT_ERRORBUFFER, errorBuffer) == CURLE_OK
    }

    deinit {
        library.api.pointee.easy_cleanup(raw)
        if let headerList { library.api.pointee.slist_free_all(headerList) }
        errorBuffer.deallocate()
    }

    func set(_ option: CURLoption, _ value: Int) throws(CurlOptionError) {
        try check(vitrine_curl_easy_setopt_long(library.api, raw, option, value), option, value: String(value))
    }
    func set(_ option: CURLoption, _ value: String) throws(CurlOptionError) {
        try check(vitrine_curl_easy_setopt_string(library.api, raw, option, value), option, value: value)
    }
    func set(_ option: CURLoption, offset value: Int64) throws(CurlOptionError) {
        try check(
            vitrine_curl_easy_setopt_offset(library.api, raw, option, curl_off_t(value)), option, value: String(value))
    }
    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(CurlOptionError) {
        try check(vitrine_curl_easy_setopt_pointer(library.api, raw, option, pointer), option, value: "a pointer")
    }
    func set(_ option: CURLoption, callback: vitrine_curl_data_callback) throws(CurlOptionError) {
        try check(
            vitrine_curl_easy_setopt_data_callback(library.api, raw, option, callback), option, value: "a callback")
    }

    func setHeaders(_ lines: [String]) throws(CurlOptionError) {
        if let headerList { library.api.pointee.slist_free_all(headerList) }
        headerList = nil
        for line in lines {
            guard let list = library.api.pointee.slist_append(headerList, line) else {
                throw CurlOptionError(option: "CURLOPT_HTTPHEADER", value: line, reason: "out of memory")
            }
            headerList = list
        }
        try check(
            vitrine_curl_easy_setopt_slist(library.api, raw, CURLOPT_HTTPHEADER, headerList), CURLOPT_HTTPHEADER,
            value: "")
    }

    /// The name libcurl's documentation gives an option this handle sets.
    static func name(of option: CURLoption) -> String {
        let names: [(CURLoption, String)] = [
            (CURLOPT_URL, "CURLOPT_URL"), (CURLOPT_NOSIGNAL, "CURLOPT_NOSIGNAL"),
            (CURLOPT_FOLLOWLOCATION, "CURLOPT_FOLLOWLOCATION"), (CURLOPT_MAXREDIRS, "CURLOPT_MAXREDIRS"),
            (CURLOPT_PROTOCOLS_STR, "CURLOPT_PROTOCOLS_STR"),
            (CURLOPT_REDIR_PROTOCOLS_STR, "CURLOPT_REDIR_PROTOCOLS_STR"),
            (CURLOPT_CONNECTTIMEOUT, "CURLOPT_CONNECTTIMEOUT"), (CURLOPT_LOW_SPEED_LIMIT, "CURLOPT_LOW_SPEED_LIMIT"),
            (CURLOPT_LOW_SPEED_TIME, "CURLOPT_LOW_SPEED_TIME"), (CURLOPT_TIMEOUT, "CURLOPT_TIMEOUT"),
            (CURLOPT_USERAGENT, "CURLOPT_USERAGENT"),
            (CURLOPT_ACCEPT_ENCODING, "CURLOPT_ACCEPT_ENCODING"),
            (CURLOPT_MAXFILESIZE_LARGE, "CURLOPT_MAXFILESIZE_LARGE"),
            (CURLOPT_HTTPHEADER, "CURLOPT_HTTPHEADER"), (CURLOPT_WRITEFUNCTION, "CURLOPT_WRITEFUNCTION"),
            (CURLOPT_WRITEDATA, "CURLOPT_WRITEDATA"), (CURLOPT_HEADERFUNCTION, "CURLOPT_HEADERFUNCTION"),
            (CURLOPT_HEADERDATA, "CURLOPT_HEADERDATA"), (CURLOPT_ERRORBUFFER, "CURLOPT_ERRORBUFFER"),
        ]
        return names.first { $0.0 == option }?.1 ?? "option \(option.rawValue)"
    }

    private func check(_ code: CURLcode, _ option: CURLoption, value: String) throws(CurlOptionError) {
        guard code == CURLE_OK else {
            throw CurlOptionError(option: Self.name(of: option), value: value, reason: library.errorText(code))
        }
    }

    /// A number libcurl keeps about the last transfer; nil when it cannot tell.
    func info(_ info: CURLINFO) -> Int? {
        var value = 0
        return vitrine_curl_easy_getinfo_long(library.api, raw, info, &value) == CURLE_OK ? value : nil
    }

    /// A text libcurl keeps about the last transfer; nil when it has none or cannot tell.
    func stringInfo(_ info: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard vitrine_curl_easy_getinfo_string(library.api, raw, info, &value) == CURLE_OK else { return nil }
        return value.map { String(cString: $0) }
    }

    /// libcurl's detailed message for the last failure, if it wrote one.
    var errorMessage: String { errorBufferSet ? String(cString: errorBuffer) : "" }
}

@available(*, unavailable)
extension CurlEasyHandle: Sendable {}

/// Owns one libcurl multi handle: the transfer loop and its connection cache.
final class CurlMultiHandle {
    let library: CurlLibrary
    let raw: UnsafeMutableRawPointer

    /// Why the handle's options could not be set, if they could not: every transfer then fails with it.
    let setupFailure: String?

    init(_ library: CurlLibrary, maximumConnections: Int) {
        self.library = library
        guard let handle = library.api.pointee.multi_init() else { fatalError("curl_multi_init failed: out of memory") }
        raw = handle
        let code = vitrine_curl_multi_setopt_long(library.api, raw, CURLMOPT_MAXCONNECTS, maximumConnections)
        setupFailure =
            code == CURLM_OK
            ? nil : "libcurl refused a connection cache of \(maximumConnections): \(library.multiErrorText(code))"
    }

    deinit { _ = library.api.pointee.multi_cleanup(raw) }

    /// Interrupts a running `poll`; libcurl allows this from any thread. A wake-up libcurl refuses (it could not
    /// write to its own wake-up pipe) is not lost for long: the transfer loop polls at most a second at a time.
    func wakeUp() { _ = library.api.pointee.multi_wakeup(raw) }

    /// Takes `easy` out of the transfer loop (`curl_multi_remove_handle`); the failure's text if libcurl refused.
    func detach(_ easy: CurlEasyHandle) -> String? {
        let code = library.api.pointee.multi_remove_handle(raw, easy.raw)
        return code == CURLM_OK ? nil : library.multiErrorText(code)
    }
}

/// The multi handle is touched from other threads only through `wakeUp`, which libcurl documents as thread-safe.
extension CurlMultiHandle: @unchecked Sendable {}

/// libcurl refused an option of a transfer (a value out of its range, or no memory for it).
struct CurlOptionError: Error {
    /// The option's name (`CURLOPT_CONNECTTIMEOUT`).
    var option: String
    var value: String
    var reason: String

    /// As a failed transfer of `url`.
    func transferError(url: String) -> FetchError {
        .transport(url: url, reason: "libcurl refused \(option) = \(value): \(reason)")
    }
}
