import FoundationEssentials
import Platform
import UnicodeText

/// Which credential was used for which service, and how often: the last tie-breaks of ranking.
///
/// Local state, never in the vault: reading a credential must not rewrite (and re-sync) the
/// vault. It lives in `$XDG_STATE_HOME/pwtui/usage` as one line per credential and service:
///
///     <uuid> TAB <host> TAB <count> TAB <last use, ms since 1970>
///
/// A damaged file only loses the tie-breaks, so it is read leniently (bad lines are skipped) and
/// rewritten whole, atomically, after each use (VaultModel's `UsageHistoryFile` reads and writes
/// it, beside the one atomic write, and keeps it between requests).
public struct UsageHistory: Sendable {
    struct Entry: Sendable {
        var count: Int
        var lastUsed: Timestamp
    }

    private var entries: [UUID: [String: Entry]] = [:]
    /// The credentials used for each host: `recordUse` finds the others' latest use there among a
    /// few, not by a pass over the whole history (which the agent made on every `get`).
    private var users: [String: [UUID]] = [:]

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

    /// A use of `id` for `host` at `time`: the most recent use for that host from now on, even when
    /// another credential's use for it was recorded in the same millisecond (a script's `get --id`
    /// right after a `get`; a test): the clock's resolution must not undo the latest choice, so
    /// such a time is moved one millisecond past the other's.
    public mutating func recordUse(of id: UUID, for host: String, at time: Timestamp) {
        var entry = entries[id]?[host] ?? Entry(count: 0, lastUsed: time)
        entry.count += 1
        let latestOther = latestUse(for: host, byOtherThan: id)
        entry.lastUsed =
            latestOther.map { max(time, Timestamp(millisecondsSince1970: $0.millisecondsSince1970 + 1)) } ?? time
        set(entry, of: id, for: host)
    }

    private func latestUse(for host: String, byOtherThan id: UUID) -> Timestamp? {
        (users[host] ?? []).lazy.filter { $0 != id }.compactMap { entries[$0]?[host]?.lastUsed }.max()
    }

    private mutating func set(_ entry: Entry, of id: UUID, for host: String) {
        if entries[id]?[host] == nil { users[host, default: []].append(id) }
        entries[id, default: [:]][host] = entry
    }

    /// A trillion uses; milliseconds until the year 37,000.
    static let plausibleCounts = 0 ... (1 << 40)
    static let plausibleTimes = Int64(0) ... (1 << 50)

    /// Parses the file's text; lines that do not parse are skipped.
    public init(text: String) {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            // Numbers out of any real range are a damaged line, skipped like one that does not parse:
            // counted up and summed later, they would overflow and stop the `get` that reads them.
            guard fields.count == 4, let id = UUID(uuidString: String(fields[0])),
                let count = Int(fields[2]), let last = Int64(fields[3]), Self.plausibleCounts.contains(count),
                Self.plausibleTimes.contains(last)
            else { continue }
            set(Entry(count: count, lastUsed: Timestamp(millisecondsSince1970: last)), of: id, for: String(fields[1]))
        }
    }

    /// The file's text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The file's bytes, lines sorted (by id, then host) so that the same history is the same
    /// file. Written as bytes: the agent writes it after every `get`, and string interpolation of
    /// `uuidString` (snprintf) was half of that.
    public var bytes: [UInt8] {
        // The id as two big-endian numbers orders like its hex text, and compares in two steps.
        var lines: [(high: UInt64, low: UInt64, id: UUID, host: String, entry: Entry)] = []
        for (id, hosts) in entries {
            let (high, low) = withUnsafeBytes(of: id.uuid) {
                (
                    UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)),
                    UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                )
            }
            for (host, entry) in hosts { lines.append((high, low, id, host, entry)) }
        }
        lines.sort {
            ($0.high, $0.low) != ($1.high, $1.low)
                ? ($0.high, $0.low) < ($1.high, $1.low)
                : $0.host.utf8.lexicographicallyPrecedes($1.host.utf8)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lines.count * 80)
        for line in lines {
            bytes += Hex.uuid(withUnsafeBytes(of: line.id.uuid) { Array($0) }).utf8
            bytes.append(0x09)
            bytes += line.host.utf8
            bytes.append(0x09)
            bytes += String(line.entry.count).utf8
            bytes.append(0x09)
            bytes += String(line.entry.lastUsed.millisecondsSince1970).utf8
            bytes.append(0x0A)
        }
        return bytes
    }
}
