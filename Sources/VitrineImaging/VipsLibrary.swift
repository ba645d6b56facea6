internal import CVips
import Glibc

/// libvips, loaded into the process the first time an image is re-encoded and kept until it ends (a GLib-based
/// library is never unloaded). Immutable once loaded; libvips encodes separate images on separate threads.
final class VipsLibrary: @unchecked Sendable {
    /// The shared object of libvips 8 (Debian's libvips42).
    static let soname = "libvips.so.42"

    /// The library, or why it could not be loaded; loaded at most once.
    static let shared: Result<VipsLibrary, ImageEncodingError> = load()

    let api: VitrineVips

    private init(api: VitrineVips) {
        self.api = api
    }

    private static func load() -> Result<VipsLibrary, ImageEncodingError> {
        guard let handle = dlopen(soname, vitrine_vips_open_flags()) else {
            let reason = dlerror().map { String(cString: $0) } ?? "dlopen failed"
            return .failure(.libraryUnavailable(reason: reason))
        }
        var api = VitrineVips()
        guard vitrine_vips_bind(handle, &api) == 1 else {
            return .failure(.libraryUnavailable(reason: "\(soname) lacks a function Vitrine calls"))
        }
        guard api.`init`("vitrine") == 0 else {
            return .failure(.libraryUnavailable(reason: "vips_init failed"))
        }
        vitrine_vips_quiet(&api)
        // Every image is encoded once and never again: libvips' cache of operations would only hold their memory.
        api.cache_set_max(0)
        // One thread an image: the build encodes one image a core at once.
        api.concurrency_set(1)
        return .success(VipsLibrary(api: api))
    }
}
