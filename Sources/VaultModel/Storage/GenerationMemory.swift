import FoundationEssentials
import Platform
import UnicodeText

/// The highest generation this machine has seen of each vault (by vault id): what tells a
/// replayed older copy — a stale backup put back, a sync server serving an old file — from the
/// vault as it was last seen, which would otherwise silently undo every change made since.
///
/// The file (`$XDG_STATE_HOME/pwtui/generations`, local state, never synced) holds one line per
/// vault, `<vault id in hex> <generation> <journal records>` (`VaultVersion`; a line without the
/// records, as pwtui wrote before the journal, counts none); an unreadable line is skipped, and a
/// missing or damaged file only means nothing is remembered yet.
public struct GenerationMemory: Equatable, Sendable {
    public private(set) var highest: [String: VaultVersion] = [:]

    public init() {}

    public static func load(from path: String) -> GenerationMemory {
        var memory = GenerationMemory()
        // A FIFO or device here reads as nothing remembered, like a damaged file.
        guard let text = try? RegularFile.textIfPresent(path) else { return memory }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2 || parts.count == 3, let generation = UInt64(parts[1]),
                let changes = parts.count == 3 ? UInt64(parts[2]) : 0
            else { continue }
            memory.highest[String(parts[0])] = VaultVersion(generation: generation, changes: changes)
        }
        return memory
    }

    /// Written without fsync (rewritten on every save, so its syncs were a third of a journaled
    /// change's): a power cut can only lose the latest versions seen, and the file then remembers
    /// an older one, below the vault's: nothing is warned about that should not be.
    public func save(to path: String) throws {
        let text = highest.sorted { $0.key < $1.key }.map {
            "\($0.key) \($0.value.generation) \($0.value.changes)\n"
        }.joined()
        try AtomicFile.write(Data(text.utf8), to: path, durable: false)
    }

    /// The higher version seen before, when `version` of `header`'s vault is older than it; nil
    /// otherwise. The memory keeps the highest.
    public mutating func opened(_ header: VaultHeader, at version: VaultVersion) -> VaultVersion? {
        let id = Hex.string(header.vaultID)
        if let seen = highest[id], seen > version { return seen }
        highest[id] = version
        return nil
    }

    /// The higher version seen of `header`'s vault, when `version` is below it; the memory
    /// unchanged. For a copy that is not the vault (a conflict copy): one below what was seen is
    /// older, or changed apart with fewer saves — versions alone cannot tell which.
    public func seen(above header: VaultHeader, at version: VaultVersion) -> VaultVersion? {
        highest[Hex.string(header.vaultID)].flatMap { $0 > version ? $0 : nil }
    }

    /// A save of this vault: what it wrote is the vault now, even below what was seen (the user
    /// was warned when the older copy was opened, and chose to carry on with it).
    public mutating func saved(_ header: VaultHeader, at version: VaultVersion) {
        highest[Hex.string(header.vaultID)] = version
    }
}
