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
/// agent's, at most once a second, and at its stop). Writing the file on every `get` made
/// concurrent gets queue for the file, one atomic write after another.
public final class UsageHistoryFile: @unchecked Sendable {
    // @unchecked: `cached`, `current` and `pending` are only touched under `lock`.
    public let path: String
    private var cached: (status: FileStatus, history: UsageHistory)?
    private let lock = Lock()
    /// Changes not written yet (only when `defersWrites`), applied in order.
    private var pending: [(inout UsageHistory) -> Void] = []
    /// `cached` with `pending` applied, kept so by each deferred `update`: applying every pending
    /// change again on each `read` cost each `get` a pass over the history per use not yet written.
    /// Nil when the file was read again since (another process wrote it): rebuilt by the next read.
    private var current: UsageHistory?
    /// One flush at a time; taken without `lock`, which a flush holds only to take the history
    /// and to note what it wrote.
    private let flushing = Lock()
    private let defersWrites: Bool

    public init(path: String, defersWrites: Bool = false) {
        self.path = path
        self.defersWrites = defersWrites
    }

    /// The history as the file holds it, with the uses not written yet; a missing or unreadable
    /// file is an empty history.
    public func read() -> UsageHistory {
        lock.withLock { readWithPendingUnlocked() }
    }

    /// Changes the history as `change` says and writes it, with no other change in between
    /// (two answers at once would each write the history without the other's use); when writes
    /// are deferred, at the next `flush`.
    public func update(_ change: @escaping (inout UsageHistory) -> Void) throws {
        try lock.withLock {
            if defersWrites {
                pending.append(change)
                // Taken out while it changes, so that the change is made in place unless a reader holds it.
                if var history = current.take() {
                    change(&history)
                    current = history
                }
                return
            }
            var history = readUnlocked()
            change(&history)
            try writeUnlocked(history)
        }
    }

    /// Writes the deferred changes, onto the file as it is now (another process may have
    /// recorded uses of its own meanwhile). Kept for the next flush if the write fails. The
    /// history is encoded and written outside `lock`, so that no `get` waits for the file: a
    /// flush held it for the whole write, and every answer meanwhile waited to read the history.
    public func flush() {
        flushing.withLock {
            let taken = lock.withLock { () -> (history: UsageHistory, count: Int)? in
                guard !pending.isEmpty else { return nil }
                return (readWithPendingUnlocked(), pending.count)
            }
            guard let taken else { return }
            let status: FileStatus?
            do { status = try writeFile(taken.history) } catch { return }
            lock.withLock {
                pending.removeFirst(taken.count)
                // `current` already holds these changes and those made since.
                cached = status.map { ($0, taken.history) }
            }
        }
    }

    private func readWithPendingUnlocked() -> UsageHistory {
        let file = readUnlocked()
        if let current { return current }
        var history = file
        for change in pending { change(&history) }
        current = history
        return history
    }

    private func readUnlocked() -> UsageHistory {
        // stat before reading: a change that lands in between makes the next stat differ.
        guard let status = try? FileSystem.status(path) else {
            if cached != nil { current = nil }
            cached = nil
            return UsageHistory()
        }
        if let cached, cached.status == status { return cached.history }
        current = nil
        // StoredFile (Platform's RegularFile): a FIFO put there must not hang the agent; it reads as no history.
        guard let bytes = try? StoredFile.readIfPresent(path) else {
            cached = nil
            return UsageHistory()
        }
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
        current = nil
        cached = try writeFile(history).map { ($0, history) }
    }

    /// Writes `history` to the file; the file's status after, when it can be read.
    private func writeFile(_ history: UsageHistory) throws -> FileStatus? {
        // Not durable: a use lost in a power cut only changes a tie-break.
        try history.bytes.withUnsafeBytes { try AtomicFile.write(bytes: $0, to: path, durable: false) }
        return try? FileSystem.status(path)
    }
}
