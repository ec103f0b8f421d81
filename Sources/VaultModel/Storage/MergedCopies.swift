import FoundationEssentials
import Platform
import UnicodeText

/// The conflict copies this machine has merged into a vault, each known by its vault id, the
/// nonce of its payload and the journal records after it: a snapshot draws a new nonce and an
/// append adds a record, so the three name that exact file, and a copy a sync service writes
/// again later (with other contents) is not taken for one already merged.
/// `doctor` then says a merged copy can be deleted, instead of asking to merge it again.
///
/// Local state (`$XDG_STATE_HOME/pwtui/merged-copies`, never synced), one `<vault id> <nonce>`
/// line per copy in hex, the nonce followed by `+<records>` when the copy has journal records; a
/// missing or damaged file only forgets, and `doctor` asks again.
public struct MergedCopies: Equatable, Sendable {
    private var copies: Set<String> = []

    public init() {}

    static func key(_ header: VaultHeader, _ version: VaultVersion) -> String {
        Hex.string(header.vaultID) + " " + Hex.string(header.payloadNonce)
            + (version.changes == 0 ? "" : "+\(version.changes)")
    }

    public func contains(_ header: VaultHeader, at version: VaultVersion) -> Bool {
        copies.contains(Self.key(header, version))
    }

    public mutating func insert(_ header: VaultHeader, at version: VaultVersion) {
        copies.insert(Self.key(header, version))
    }

    public static func load(from path: String) -> MergedCopies {
        var merged = MergedCopies()
        guard let text = try? RegularFile.textIfPresent(path) else { return merged }
        for line in text.split(separator: "\n") where line.split(separator: " ").count == 2 {
            merged.copies.insert(String(line))
        }
        return merged
    }

    public func save(to path: String) throws {
        try AtomicFile.write(Data(copies.sorted().map { $0 + "\n" }.joined().utf8), to: path)
    }
}
