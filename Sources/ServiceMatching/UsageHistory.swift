import FoundationEssentials
import Platform

/// Which credential was used for which service, and how often: the last tie-breaks of ranking.
///
/// Local state, never in the vault: reading a credential must not rewrite (and re-sync) the
/// vault. It lives in `$XDG_STATE_HOME/pwtui/usage` as one line per credential and service:
///
///     <uuid> TAB <host> TAB <count> TAB <last use, ms since 1970>
///
/// A damaged file only loses the tie-breaks, so it is read leniently (bad lines are skipped) and
/// rewritten whole, atomically, after each use (`load` and `save` are in VaultModel, beside the
/// one atomic write).
public struct UsageHistory: Sendable {
    struct Entry: Sendable {
        var count: Int
        var lastUsed: Timestamp
    }

    private var entries: [UUID: [String: Entry]] = [:]

    public init() {}

    public func lastUsed(_ id: UUID, for host: String) -> Timestamp? {
        entries[id]?[host]?.lastUsed
    }

    /// The last use of `id` for any service (the detail screen's and `show`'s "last used").
    public func lastUsed(_ id: UUID) -> Timestamp? {
        entries[id]?.values.map(\.lastUsed).max()
    }

    /// `lastUsed(id, for: host)` and `useCount(id)` in one lookup: ranking asks both of every
    /// matching credential, and most have never been used (one hash of the id says so).
    public func use(of id: UUID, for host: String) -> (lastUsed: Timestamp?, count: Int) {
        guard let hosts = entries[id] else { return (nil, 0) }
        return (hosts[host]?.lastUsed, hosts.values.reduce(0) { $0 + $1.count })
    }

    public func useCount(_ id: UUID) -> Int {
        entries[id]?.values.reduce(0) { $0 + $1.count } ?? 0
    }

    public mutating func recordUse(of id: UUID, for host: String, at time: Timestamp) {
        var entry = entries[id]?[host] ?? Entry(count: 0, lastUsed: time)
        entry.count += 1
        entry.lastUsed = time
        entries[id, default: [:]][host] = entry
    }

    /// Parses the file's text; lines that do not parse are skipped.
    public init(text: String) {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4, let id = UUID(uuidString: String(fields[0])),
                  let count = Int(fields[2]), let last = Int64(fields[3]) else { continue }
            entries[id, default: [:]][String(fields[1])] = Entry(count: count, lastUsed: Timestamp(millisecondsSince1970: last))
        }
    }

    public var text: String {
        var lines: [String] = []
        for (id, hosts) in entries {
            for (host, entry) in hosts {
                lines.append("\(id.uuidString.lowercased())\t\(host)\t\(entry.count)\t\(entry.lastUsed.millisecondsSince1970)")
            }
        }
        return lines.sorted().joined(separator: "\n") + (lines.isEmpty ? "" : "\n")
    }
}
