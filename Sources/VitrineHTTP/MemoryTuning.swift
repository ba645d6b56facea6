internal import CCurl
import Foundation
import VitrineBasics

/// Process-wide allocator settings for the command-line tool.
package enum MemoryTuning {
    /// Bounds glibc's malloc arenas. By default every thread that allocates gets an arena of its own, up to eight a
    /// core, and memory freed in one arena is not reused by allocations in another. Here: one for each core that
    /// renders pages at once (``InOrderWork/cores``), one for the main thread and one for the transfer thread.
    /// Threads beyond the bound share arenas, and two transforms sharing one wait for its lock at every allocation:
    /// with two arenas on two cores, a build rendering on both took more processor time and often more time than
    /// rendering on one (the figures are in BENCHMARKS.md, "Figures behind the code"). Call it first thing, before
    /// other threads start. `MALLOC_ARENA_MAX` in the environment, which glibc reads itself, takes precedence.
    package static func limitAllocatorArenas(to count: Int32 = Int32(InOrderWork.cores + 2)) {
        guard getenv("MALLOC_ARENA_MAX") == nil else { return }
        _ = vitrine_limit_malloc_arenas(count)
    }

    /// Gives the whole free pages of every arena back to the system: what the downloads freed in their arenas is
    /// not held through the pages rendered on the other cores' arenas. Whether any was given back changes nothing.
    package static func returnFreedMemory() {
        _ = vitrine_trim_malloc_arenas()
    }
}
