import FoundationEssentials
import Platform

/// Which saved passwords a host told git it rejects: the git helper's memory of `erase`.
///
/// git runs `erase` after a server turned a password down. Deleting the credential then would
/// lose it to a typo on the server's side, an expired account or a wrong host; doing nothing
/// made the helper hand git the same wrong password at every later `get`, so git, which asks
/// its own prompt only when no helper answers, never asked. So the helper remembers the
/// rejection and, with nobody at a terminal, stops answering with that password for that host
/// until it is changed (by `pwtui edit`, by a `store` after a yes, on another machine) or
/// confirmed (a `store` of the same password: the login worked after all).
///
/// A mark is the credential's id, the rejecting origin (`scheme://host:port`) and the time the
/// rejected password was set (`Credential.secretSet`). That time says whether the password is
/// still the one that was rejected, without anything derived from the password itself: no hash
/// of a secret leaves the encrypted vault (a fast hash of a password on disk is an offline
/// guessing target). It is local state in `$XDG_STATE_HOME/pwtui/git-rejected`, like the usage
/// history: a rejection is what this machine's git saw, not something to sync, and recording it
/// must not rewrite the vault. One line per mark:
///
///     <uuid> TAB <origin> TAB <secret set, ms since 1970>
///
/// A damaged file only loses marks (the helper then answers as before), so it is read
/// leniently and rewritten whole, atomically, mode 0600.
public struct GitRejections: Equatable, Sendable {
    struct Key: Hashable, Sendable {
        let id: UUID
        let origin: String
    }

    private var marks: [Key: Timestamp] = [:]

    public init() {}

    /// The credentials whose current password `origin` rejected, with the time that password was
    /// set: a credential is rejected only while its `secretSet` is still that time.
    public func rejected(at origin: String) -> [UUID: Timestamp] {
        var found: [UUID: Timestamp] = [:]
        for (key, secretSet) in marks where key.origin == origin { found[key.id] = secretSet }
        return found
    }

    public func isRejected(_ credential: Credential, at origin: String) -> Bool {
        marks[Key(id: credential.id, origin: origin)] == credential.secretSet
    }

    public mutating func markRejected(_ id: UUID, secretSet: Timestamp, at origin: String) {
        marks[Key(id: id, origin: origin)] = secretSet
    }

    /// Forgets the mark; true when there was one.
    @discardableResult
    public mutating func clear(_ id: UUID, at origin: String) -> Bool {
        marks.removeValue(forKey: Key(id: id, origin: origin)) != nil
    }

    /// Parses the file's text; lines that do not parse are skipped.
    public init(text: String) {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3, let id = UUID(uuidString: String(fields[0])), !fields[1].isEmpty,
                let time = Int64(fields[2])
            else { continue }
            marks[Key(id: id, origin: String(fields[1]))] = Timestamp(millisecondsSince1970: time)
        }
    }

    public var text: String {
        let lines = marks.map {
            "\($0.key.id.uuidString.lowercased())\t\($0.key.origin)\t\($0.value.millisecondsSince1970)"
        }
        return lines.sorted().joined(separator: "\n") + (lines.isEmpty ? "" : "\n")
    }

    /// Reads the marks at `path`; a missing or unreadable file holds none.
    public static func load(from path: String) -> GitRejections {
        // Through the funnel: a FIFO here must not hang git's helper.
        guard let text = try? RegularFile.textIfPresent(path) else { return GitRejections() }
        return GitRejections(text: text)
    }

    /// Writes the marks atomically, mode 0600.
    public func save(to path: String) throws {
        try AtomicFile.write(Data(text.utf8), to: path)
    }
}
