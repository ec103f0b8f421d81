import FoundationEssentials
import ServiceMatching

/// The use history's file, `$XDG_STATE_HOME/pwtui/usage` (the format is `UsageHistory`'s).
extension UsageHistory {
    /// Reads the history at `path`; a missing or unreadable file is an empty history.
    public static func load(from path: String) -> UsageHistory {
        guard let data = FileManager.default.contents(atPath: path) else { return UsageHistory() }
        return UsageHistory(text: String(decoding: data, as: UTF8.self))
    }

    /// Writes the history atomically, mode 0600.
    public func save(to path: String) throws {
        // Not durable: a use lost in a power cut only changes a tie-break, and `get` writes this
        // on every answer.
        try AtomicFile.write(Data(text.utf8), to: path, durable: false)
    }
}
