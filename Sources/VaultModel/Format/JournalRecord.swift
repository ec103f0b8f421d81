import FoundationEssentials
import ServiceMatching
import VaultCrypto

/// One change as a journal record holds it (`VaultJournal`): the state it left, not the steps
/// it took. Every credential the change touched is written whole, as it is after the change, a
/// removed one as its tombstone, and the equivalent domains when they changed; replaying puts
/// those in place. A state is idempotent and needs no closure to be stored (an edit is a closure
/// in `VaultChange`), and a record is as large as the credentials it touched, never the vault.
enum JournalRecord {
    /// The record's plaintext for `touched` in `contents`.
    static func encode(_ touched: AppendedChange, in contents: VaultContents) throws -> SecureBytes {
        let present = contents.positions(of: touched.ids).map { contents.credentials[$0] }
        let gone = touched.ids.subtracting(present.map(\.id))
        let removed = gone.isEmpty ? [] : contents.tombstones.filter { gone.contains($0.id) }
        let change = VaultContents(
            credentials: present, tombstones: removed,
            equivalents: touched.equivalents ? contents.equivalents : EquivalentDomains(), secrets: contents.secrets)
        return try PayloadCodec.encode(change, reservingBefore: 0, after: 0, padding: .record)
    }

    /// Records replayed onto a snapshot's contents. The credentials are looked up by id in the
    /// table the snapshot's decoding built anyway (to refuse an id met twice), and the removed
    /// ones are dropped at the end, so that a long journal replays in one pass over the vault.
    struct Replay {
        private var credentials: [Credential]
        private var removed: Set<Int> = []
        private var tombstones: [Tombstone]
        private var equivalents: EquivalentDomains
        private let secrets: SecretArena
        private var positions: [UUID: Int] = [:]
        private var tombstonePositions: [UUID: Int] = [:]
        private var indexed = false
        private let path: String

        /// `snapshot`: a decoded payload, whose id table the replay takes over.
        init(onto snapshot: consuming PayloadCodec.Records, path: String) {
            positions = snapshot.positions
            credentials = snapshot.credentials
            tombstones = snapshot.tombstones
            equivalents = snapshot.equivalents ?? EquivalentDomains()
            secrets = snapshot.secrets
            self.path = path
        }

        /// Puts in place what one record holds, its plaintext lent in `plaintext`. Its secrets are
        /// copied out: the buffer is the next record's.
        mutating func apply(_ plaintext: SecretArena) throws {
            let record = try PayloadCodec.decodeRecords(in: plaintext, path: path)
            if !indexed { indexTombstones() }
            for credential in record.credentials {
                let moved = try credential.copyingSecrets(from: record.secrets, into: secrets)
                if let position = positions[credential.id] {
                    credentials[position] = moved
                } else {
                    positions[credential.id] = credentials.count
                    credentials.append(moved)
                }
            }
            for tombstone in record.tombstones {
                if let position = positions.removeValue(forKey: tombstone.id) { removed.insert(position) }
                if let position = tombstonePositions[tombstone.id] {
                    tombstones[position] = tombstone
                } else {
                    tombstonePositions[tombstone.id] = tombstones.count
                    tombstones.append(tombstone)
                }
            }
            if let changed = record.equivalents { equivalents = changed }
        }

        private mutating func indexTombstones() {
            for position in tombstones.indices { tombstonePositions[tombstones[position].id] = position }
            indexed = true
        }

        /// The contents with every record applied.
        func finish() -> VaultContents {
            VaultContents(
                credentials: removed.isEmpty
                    ? credentials : credentials.indices.filter { !removed.contains($0) }.map { credentials[$0] },
                tombstones: tombstones, equivalents: equivalents, secrets: secrets)
        }
    }
}
