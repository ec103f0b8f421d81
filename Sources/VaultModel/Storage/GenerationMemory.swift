import FoundationEssentials
import Platform
import UnicodeText

/// The highest generation this machine has seen of each vault (by vault id): what tells a
/// replayed older copy — a stale backup put back, a sync server serving an old file — from the
/// vault as it was last seen, which would otherwise silently undo every change made since.
///
/// The file (`$XDG_STATE_HOME/pwtui/generations`, local state, never synced) holds one line per
/// vault, `<vault id in hex> <generation>`; an unreadable line is skipped, and a missing or
/// damaged file only means nothing is remembered yet.
public struct GenerationMemory: Equatable, Sendable {
    public private(set) var highest: [String: UInt64] = [:]

    public init() {}

    public static func load(from path: String) -> GenerationMemory {
        var memory = GenerationMemory()
        // A FIFO or device here reads as nothing remembered, like a damaged file.
        guard let text = try? RegularFile.textIfPresent(path) else { return memory }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let generation = UInt64(parts[1]) else { continue }
            memory.highest[String(parts[0])] = generation
        }
        return memory
    }

    public func save(to path: String) throws {
        let text = highest.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)\n" }.joined()
        try AtomicFile.write(Data(text.utf8), to: path)
    }

    /// The higher generation seen before, when `header` is older than it; nil otherwise. The
    /// memory keeps the highest.
    public mutating func opened(_ header: VaultHeader) -> UInt64? {
        let id = Hex.string(header.vaultID)
        if let seen = highest[id], seen > header.generation { return seen }
        highest[id] = header.generation
        return nil
    }

    /// The higher generation seen of `header`'s vault, when `header` is below it; the memory
    /// unchanged. For a copy that is not the vault (a conflict copy): one below what was seen is
    /// older, or changed apart with fewer saves — generations alone cannot tell which.
    public func seen(above header: VaultHeader) -> UInt64? {
        highest[Hex.string(header.vaultID)].flatMap { $0 > header.generation ? $0 : nil }
    }

    /// A save of this vault: what it wrote is the vault now, even below what was seen (the user
    /// was warned when the older copy was opened, and chose to carry on with it).
    public mutating func saved(_ header: VaultHeader) {
        highest[Hex.string(header.vaultID)] = header.generation
    }
}
