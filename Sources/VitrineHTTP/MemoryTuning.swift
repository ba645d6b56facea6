internal import CCurl
import Foundation

/// Process-wide allocator settings for the command-line tool.
package enum MemoryTuning {
    /// Bounds glibc's malloc arenas. By default every thread that allocates (the transfer thread, the threads of
    /// the cooperative pool) gets an arena of its own, and memory freed in one arena is not reused by allocations
    /// in another; with one, the render phase reuses what the download phase freed, at the same speed (the figures
    /// are in BENCHMARKS.md, "Figures behind the code"). Call it first thing, before other threads start.
    /// `MALLOC_ARENA_MAX` in the environment, which glibc reads itself, takes precedence.
    package static func limitAllocatorArenas(to count: Int32 = 1) {
        guard getenv("MALLOC_ARENA_MAX") == nil else { return }
        _ = vitrine_limit_malloc_arenas(count)
    }
}
