import FoundationEssentials
import Platform
import ServiceMatching

/// The use history's file, `$XDG_STATE_HOME/pwtui/usage` (the format is `UsageHistory`'s), as one
/// process keeps it. The agent ranks with it on every `get`: reading and parsing the file each
/// time was 42 % of the agent's work for a history of 300 uses (perf), so the history read last
/// is kept with the file's stat, and read again only when another process has replaced the file
/// since (a new inode, size or modification time). The agent answers requests side by side, so
/// the cache and each read-modify-write of the file (`update`) are under a lock of its own.
public final class UsageHistoryFile: @unchecked Sendable {
    // @unchecked: `cached` is only touched under `lock`.
    public let path: String
    private var cached: (status: FileStatus, history: UsageHistory)?
    private let lock = Lock()

    public init(path: String) {
        self.path = path
    }

    /// The history as the file holds it; a missing or unreadable file is an empty history.
    public func read() -> UsageHistory {
        lock.withLock { readUnlocked() }
    }

    /// Changes the history as `change` says and writes it, with no other change in between
    /// (two answers at once would each write the history without the other's use).
    public func update(_ change: (inout UsageHistory) -> Void) throws {
        try lock.withLock {
            var history = readUnlocked()
            change(&history)
            try writeUnlocked(history)
        }
    }

    private func readUnlocked() -> UsageHistory {
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
        try lock.withLock { try writeUnlocked(history) }
    }

    private func writeUnlocked(_ history: UsageHistory) throws {
        cached = nil
        // Not durable: a use lost in a power cut only changes a tie-break, and `get` writes this
        // on every answer.
        try history.bytes.withUnsafeBytes { try AtomicFile.write(bytes: $0, to: path, durable: false) }
        if let status = try? FileSystem.status(path) { cached = (status, history) }
    }
}
