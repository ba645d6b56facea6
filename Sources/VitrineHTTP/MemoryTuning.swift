internal import CCurl
import Foundation

/// Process-wide allocator settings for the command-line tool.
public enum MemoryTuning {
    /// Bounds glibc's malloc arenas. By default every thread that allocates (the transfer thread, the threads of
    /// the cooperative pool) gets an arena of its own, and memory freed in one arena is not reused by allocations
    /// in another: a cold build of 1,000 items peaked at about 70 MB with the default, 60 MB with two arenas and
    /// 57 MB with one (the render phase then reuses what the download phase freed), at the same speed
    /// (BENCHMARKS.md). Call it first thing, before other threads start.
    /// `MALLOC_ARENA_MAX` in the environment, which glibc reads itself, takes precedence.
    public static func limitAllocatorArenas(to count: Int32 = 1) {
        guard getenv("MALLOC_ARENA_MAX") == nil else { return }
        _ = vitrine_limit_malloc_arenas(count)
    }
}
