internal import CCurl
import Foundation

/// Initialises libcurl once per process; call before any transfer.
enum CurlRuntime {
    private static let initialised: Bool = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK }()

    static func ensureInitialised() { _ = initialised }
}

/// Owns one libcurl easy handle, its header list and its error buffer, which must outlive the handle's use.
final class CurlEasyHandle {
    let raw: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>

    init() {
        CurlRuntime.ensureInitialised()
        guard let handle = curl_easy_init() else { fatalError("curl_easy_init failed: out of memory") }
        raw = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        vitrine_curl_easy_setopt_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer)
    }

    deinit {
        curl_easy_cleanup(raw)
        if let headerList { curl_slist_free_all(headerList) }
        errorBuffer.deallocate()
    }

    func set(_ option: CURLoption, _ value: Int) { vitrine_curl_easy_setopt_long(raw, option, value) }
    func set(_ option: CURLoption, _ value: String) { vitrine_curl_easy_setopt_string(raw, option, value) }
    func set(_ option: CURLoption, offset value: Int64) {
        vitrine_curl_easy_setopt_offset(raw, option, curl_off_t(value))
    }
    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) {
        vitrine_curl_easy_setopt_pointer(raw, option, pointer)
    }
    func set(_ option: CURLoption, callback: vitrine_curl_data_callback) {
        vitrine_curl_easy_setopt_data_callback(raw, option, callback)
    }

    func setHeaders(_ lines: [String]) {
        if let headerList { curl_slist_free_all(headerList) }
        headerList = nil
        for line in lines { headerList = curl_slist_append(headerList, line) }
        vitrine_curl_easy_setopt_slist(raw, CURLOPT_HTTPHEADER, headerList)
    }

    func info(_ info: CURLINFO) -> Int {
        var value = 0
        vitrine_curl_easy_getinfo_long(raw, info, &value)
        return value
    }

    func stringInfo(_ info: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        vitrine_curl_easy_getinfo_string(raw, info, &value)
        return value.map { String(cString: $0) }
    }

    /// libcurl's detailed message for the last failure, if it wrote one.
    var errorMessage: String { String(cString: errorBuffer) }
}

@available(*, unavailable)
extension CurlEasyHandle: Sendable {}

/// Owns one libcurl multi handle: the transfer loop and its connection cache.
final class CurlMultiHandle {
    let raw: UnsafeMutableRawPointer

    init(maximumConnections: Int) {
        CurlRuntime.ensureInitialised()
        guard let handle = curl_multi_init() else { fatalError("curl_multi_init failed: out of memory") }
        raw = handle
        vitrine_curl_multi_setopt_long(raw, CURLMOPT_MAXCONNECTS, maximumConnections)
    }

    deinit { curl_multi_cleanup(raw) }

    /// Interrupts a running `poll`; libcurl allows this from any thread.
    func wakeUp() { curl_multi_wakeup(raw) }
}

/// The multi handle is touched from other threads only through `wakeUp`, which libcurl documents as thread-safe.
extension CurlMultiHandle: @unchecked Sendable {}

/// The libcurl error name and text for a result code.
func curlErrorText(_ code: CURLcode) -> String { String(cString: curl_easy_strerror(code)) }
