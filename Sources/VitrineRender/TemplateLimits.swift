internal import CXSLT
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How much memory and time one page's transform may take: a template that builds an ever-longer string or loops for
/// ever is stopped with a sentence naming the limit, instead of taking the machine. The defaults are far above what
/// a real theme needs (`RenderTests.theBuiltInThemeNeedsATenthOfTheLimitsAtAThousandItems`; README, "Template
/// safety").
package struct TemplateLimits: Sendable, Equatable {
    /// The most memory, in bytes, that libxml2 and libxslt may hold for one transform and its serialization.
    var memoryBytes: Int
    /// The longest one transform and its serialization may take, in seconds.
    package var seconds: Double

    package init(memoryBytes: Int, seconds: Double) {
        self.memoryBytes = memoryBytes
        self.seconds = seconds
    }

    /// 512 MB and 60 seconds a page.
    package static let standard = TemplateLimits(memoryBytes: 512 << 20, seconds: 60)

    /// The memory limit as the sentences give it ("512 MB").
    var memoryText: String {
        memoryBytes >= 1 << 20 ? "\(memoryBytes >> 20) MB" : "\(memoryBytes) bytes"
    }

    /// The time limit as the sentences give it ("60 seconds").
    var secondsText: String {
        seconds == seconds.rounded() ? "\(Int(seconds)) second\(seconds == 1 ? "" : "s")" : "\(seconds) seconds"
    }
}

/// Which of a transform's limits it went past.
enum TemplateLimitHit: UInt8 {
    case none = 0
    case memory = 1
    case time = 2
}

/// The count one transform keeps while it runs: what libxml2 and libxslt allocated on its thread, net of what they
/// freed, against its limits. The allocator hooks (``TransformMeter/installAllocatorHooks()``) find it through a
/// thread-specific key: a transform runs on one thread from start to end, and several run at once on others.
struct TransformMeterState {
    var used = 0
    var peak = 0
    var limit = 0
    /// Nanoseconds of the monotonic clock after which the transform stops.
    var deadline: UInt64 = 0
    var hit = TemplateLimitHit.none
    /// The transform to stop when a limit is hit (its `state`, which the engine checks between instructions, is set
    /// on its own thread: the hooks run on it).
    var context: xsltTransformContextPtr?
}

/// Owns the meter of one transform and makes it the current one of the calling thread while `body` runs.
final class TransformMeter {
    private let state: UnsafeMutablePointer<TransformMeterState>

    init(limits: TemplateLimits) {
        Self.installAllocatorHooks()
        state = .allocate(capacity: 1)
        let nanoseconds = limits.seconds * 1e9
        state.initialize(
            to: TransformMeterState(
                limit: limits.memoryBytes,
                deadline: monotonicNanoseconds() &+ (nanoseconds >= 1.8e19 ? UInt64.max / 2 : UInt64(nanoseconds))))
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The limit the transform went past, if any.
    var hit: TemplateLimitHit { state.pointee.hit }
    /// The most memory the transform held at once, in bytes.
    var peakBytes: Int { state.pointee.peak }

    /// Runs `body` with this meter counting the calling thread's libxml2 and libxslt allocations, and stopping
    /// `context` (when given) once a limit is hit.
    func measuring<Result>(_ context: xsltTransformContextPtr?, _ body: () throws -> Result) rethrows -> Result {
        state.pointee.context = context
        defer { state.pointee.context = nil }
        return try meterSlot.holding(UnsafeMutableRawPointer(state), body)
    }

    /// Routes libxml2's allocations (and so libxslt's) through the metered functions below, once per process.
    /// They call the C library's own `malloc`, `realloc` and `free`, so memory allocated before they were installed
    /// is freed correctly after, and a thread without a meter pays one `pthread_getspecific` a call.
    static func installAllocatorHooks() { _ = hooksInstalled }

    private static let hooksInstalled: Bool = {
        _ = meterSlot
        // xmlMemSetup refuses only a missing function, and without the hooks no template's memory would be bounded.
        let installed = xmlMemSetup(meteredFree, meteredMalloc, meteredRealloc, meteredStrdup)
        precondition(installed == 0, "libxml2 refused the allocator hooks that bound a template's memory")
        return true
    }()
}

@available(*, unavailable)
extension TransformMeter: Sendable {}

/// Where the allocator hooks find the calling thread's ``TransformMeterState``.
private let meterSlot = ThreadSlot(for: "the template meter")

private func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    #if os(Linux)
        clock_gettime(CLOCK_MONOTONIC_COARSE, &now)
    #else
        clock_gettime(CLOCK_MONOTONIC, &now)
    #endif
    return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
}

private func usableSize(_ pointer: UnsafeMutableRawPointer) -> Int { Int(vitrine_usable_size(pointer)) }

private func currentMeter() -> UnsafeMutablePointer<TransformMeterState>? {
    meterSlot.value?.assumingMemoryBound(to: TransformMeterState.self)
}

/// Whether the current transform may take `bytes` more. Past its memory limit or its deadline the transform is
/// stopped (libxslt checks between instructions), but the allocation is still made up to the limit plus
/// ``memoryHeadroom``, and fails only beyond: libxslt does not check every allocation it makes, and a failed one on
/// such a path dereferences NULL and ends the process (`TemplateLimitsTests`).
private func admit(_ bytes: Int, to meter: UnsafeMutablePointer<TransformMeterState>) -> Bool {
    if bytes > 0, meter.pointee.used > meter.pointee.limit - bytes {
        stop(meter, hit: .memory)
        if meter.pointee.used > meter.pointee.limit + memoryHeadroom - bytes { return false }
    }
    if monotonicNanoseconds() > meter.pointee.deadline { stop(meter, hit: .time) }
    return true
}

/// What a stopped transform may still allocate past its memory limit while libxslt unwinds it: the built-in theme's
/// largest page (a grid page of 100 items) peaks at 2.4 MB.
private let memoryHeadroom = 64 << 20

private func stop(_ meter: UnsafeMutablePointer<TransformMeterState>, hit: TemplateLimitHit) {
    if meter.pointee.hit == .none { meter.pointee.hit = hit }
    meter.pointee.context?.pointee.state = XSLT_STATE_STOPPED
}

private func count(_ bytes: Int, in meter: UnsafeMutablePointer<TransformMeterState>) {
    meter.pointee.used += bytes
    if meter.pointee.used > meter.pointee.peak { meter.pointee.peak = meter.pointee.used }
}

private let meteredMalloc: xmlMallocFunc = { size in
    guard let meter = currentMeter() else { return malloc(size) }
    guard size <= Int.max / 2, admit(Int(size), to: meter), let pointer = malloc(size) else { return nil }
    count(usableSize(pointer), in: meter)
    return pointer
}

private let meteredRealloc: xmlReallocFunc = { pointer, size in
    guard let meter = currentMeter() else { return realloc(pointer, size) }
    let old = pointer.map(usableSize) ?? 0
    guard size <= Int.max / 2, admit(max(0, Int(size) - old), to: meter) else { return nil }
    guard let moved = realloc(pointer, size) else { return nil }
    count(usableSize(moved) - old, in: meter)
    return moved
}

private let meteredFree: xmlFreeFunc = { pointer in
    guard let pointer else { return }
    if let meter = currentMeter() { meter.pointee.used -= usableSize(pointer) }
    free(pointer)
}

private let meteredStrdup: xmlStrdupFunc = { text in
    guard let text else { return nil }
    let length = strlen(text) + 1
    guard let copy = meteredMalloc(length) else { return nil }
    memcpy(copy, text, length)
    return copy.assumingMemoryBound(to: CChar.self)
}
