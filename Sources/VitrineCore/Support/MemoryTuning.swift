internal import CCurl

/// Process-wide allocator settings for the command-line tool.
public enum MemoryTuning {
    /// Bounds glibc's malloc arenas. By default every thread that allocates (the transfer thread, the threads of
    /// the cooperative pool) gets an arena of its own, which added about 10 MB to the peak memory of a cold build of
    /// 1,000 items, at the same speed (BENCHMARKS.md). Call it first thing, before other threads start.
    public static func limitAllocatorArenas(to count: Int32 = 2) {
        _ = vitrine_limit_malloc_arenas(count)
    }
}
