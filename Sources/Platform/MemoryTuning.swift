internal import CSystem

/// How the allocator treats a long-lived process.
public enum MemoryTuning {
    /// Keeps allocations of `bytes` and more in their own mappings for the life of the process
    /// (glibc otherwise raises the threshold after each large free, and a long-lived process that
    /// saves often fragments its heap). For the agent. False where the allocator refused.
    @discardableResult
    public static func fixMmapThreshold(bytes: Int32) -> Bool {
        pwtui_fix_mmap_threshold(bytes) == 1
    }

    /// Gives the heap's free memory back to the system (glibc's malloc_trim): after a phase that
    /// built and let go of much (an import's entries and plan), so that the next phase (the
    /// save's payload and file image, in mappings of their own) adds to what is in use, not to
    /// the high-water mark of what was.
    public static func returnFreedMemory() {
        _ = malloc_trim(0)
    }
}
