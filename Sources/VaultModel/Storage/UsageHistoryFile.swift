import FoundationEssentials
import Platform
import ServiceMatching

/// The use history's file, `$XDG_STATE_HOME/pwtui/usage` (the format is `UsageHistory`'s), as one
/// process keeps it. The agent ranks with it on every `get`: reading and parsing the file each
/// time was 42 % of the agent's work for a history of 300 uses (perf), so the history read last
/// is kept with the file's stat, and read again only when another process has replaced the file
/// since (a new inode, size or modification time). One process's requests are one at a time
/// (the agent's turn), so this needs no lock of its own.
public final class UsageHistoryFile {
    public let path: String
    private var cached: (status: FileStatus, history: UsageHistory)?

    public init(path: String) {
        self.path = path
    }

    /// The history as the file holds it; a missing or unreadable file is an empty history.
    public func read() -> UsageHistory {
        // stat before reading: a change that lands in between makes the next stat differ.
        guard let status = try? FileSystem.status(path) else {
            cached = nil
            return UsageHistory()
        }
        if let cached, cached.status == status { return cached.history }
        // StoredFile (Platform's RegularFile): a FIFO put there must not hang the agent; it reads as no history.
        guard let bytes = try? StoredFile.readIfPresent(path) else { return UsageHistory() }
        let history = UsageHistory(text: String(decoding: bytes, as: UTF8.self))
        cached = (status, history)
        return history
    }

    /// Writes `history` atomically, mode 0600, and keeps it as what the file now holds.
    public func write(_ history: UsageHistory) throws {
        cached = nil
        // Not durable: a use lost in a power cut only changes a tie-break, and `get` writes this
        // on every answer.
        try history.bytes.withUnsafeBytes { try AtomicFile.write(bytes: $0, to: path, durable: false) }
        if let status = try? FileSystem.status(path) { cached = (status, history) }
    }
}
