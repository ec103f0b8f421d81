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
}
