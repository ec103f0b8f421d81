import FoundationEssentials
import Platform
import ServiceMatching

/// The use history's file, `$XDG_STATE_HOME/pwtui/usage` (the format is `UsageHistory`'s), as one
/// process keeps it. The agent ranks with it on every `get`: reading and parsing the file each
/// time was 42 % of the agent's work for a history of 300 uses (perf), so the history read last
/// is kept with the file's stat, and read again only when another process has replaced the file
/// since (a new inode, size or modification time). The agent answers requests side by side, so
/// the cache and each read-modify-write of the file (`update`) are under a lock of its own.
///
/// A process that answers many requests (the agent) defers its writes (`defersWrites`): a use is
/// kept in memory, counted in every `read` at once, and written with the others by `flush` (the
/// agent's idle tick, four times a second, and its stop). Writing the file on every `get` made
/// concurrent gets queue for the file, one atomic write after another.
public final class UsageHistoryFile: @unchecked Sendable {
    // @unchecked: `cached` and `pending` are only touched under `lock`.
    public let path: String
    private var cached: (status: FileStatus, history: UsageHistory)?
    private let lock = Lock()
    /// Changes not written yet (only when `defersWrites`), applied in order.
    private var pending: [(inout UsageHistory) -> Void] = []
    private let defersWrites: Bool

    public init(path: String, defersWrites: Bool = false) {
        self.path = path
        self.defersWrites = defersWrites
    }

    /// The history as the file holds it; a missing or unreadable file is an empty history.
    public func read() -> UsageHistory {
        lock.withLock {
            var history = readUnlocked()
            for change in pending { change(&history) }
            return history
        }
    }

    /// Changes the history as `change` says and writes it, with no other change in between
    /// (two answers at once would each write the history without the other's use); when writes
    /// are deferred, at the next `flush`.
    public func update(_ change: @escaping (inout UsageHistory) -> Void) throws {
        try lock.withLock {
            if defersWrites {
                pending.append(change)
                return
            }
            var history = readUnlocked()
            change(&history)
            try writeUnlocked(history)
        }
    }

    /// Writes the deferred changes, onto the file as it is now (another process may have
    /// recorded uses of its own meanwhile). Kept for the next flush if the write fails.
    public func flush() {
        lock.withLock {
            guard !pending.isEmpty else { return }
            var history = readUnlocked()
            for change in pending { change(&history) }
            if (try? writeUnlocked(history)) != nil { pending = [] }
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
