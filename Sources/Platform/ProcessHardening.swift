internal import CSystem

/// What a process holding secrets does first: no core files, not dumpable, and no crash handler
/// that prints memory (the Swift runtime's backtracer does, even in a non-dumpable process).
public enum ProcessHardening {
    /// Returns false when one of the steps failed; the caller decides whether to go on.
    @discardableResult
    public static func apply() -> Bool {
        pwtui_harden_process(0) == 0
    }

    /// The same but staying dumpable, so that the agent can read this process's executable
    /// (/proc/PID/exe) and trust it: the Secret Service's relay, which names each bus client to
    /// the agent. The cost is what any dumpable program of the user has (another process of the
    /// user may attach to it, as to Chromium itself), for secrets that only pass through.
    @discardableResult
    public static func applyKeepingExecutableVisible() -> Bool {
        pwtui_harden_process(1) == 0
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
