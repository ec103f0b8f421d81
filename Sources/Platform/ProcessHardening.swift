internal import CSystem

/// What a process holding secrets does first: no core files, not dumpable, and no crash handler
/// that prints memory (the Swift runtime's backtracer does, even in a non-dumpable process).
public enum ProcessHardening {
    /// Returns false when one of the steps failed; the caller decides whether to go on.
    @discardableResult
    public static func apply() -> Bool {
        pwtui_harden_process() == 0
    }

    /// Whether the kernel would let another process of this user attach or read a core.
    public static var isDumpable: Bool? {
        switch pwtui_is_dumpable() {
        case 0: return false
        case 1, 2: return true
        default: return nil
        }
    }
}
