import Foundation

// Merging two versions of one vault: ours (in memory, with unsaved edits) and theirs (what
// another process saved since we read the file).
//
// Every credential and tombstone carries its own time, so the merge is per entry and needs no
// common ancestor: for each id, the newest of the four possible states (our credential, our
// tombstone, their credential, their tombstone) wins: a credential by its modified time, a
// tombstone by its deletion time. A tombstone wins a tie, because deleting is the more deliberate
// act. Ours wins any other tie, since it is the edit being saved now. The result is the same
// whichever side saves first, which is what lets four processes add at once and lose nothing.
//
// Their secrets live in their arena; the winners among them are copied into ours, so the merged
// contents reference a single arena.
enum VaultMerge {
    static func merge(ours: VaultContents, theirs: VaultContents) throws -> VaultContents {
        var result = ours
        if theirs.equivalents.modified > ours.equivalents.modified { result.equivalents = theirs.equivalents }
        var index: [UUID: Int] = [:]
        for (position, credential) in result.credentials.enumerated() { index[credential.id] = position }
        var ourTombstones: [UUID: Timestamp] = [:]
        for tombstone in ours.tombstones { ourTombstones[tombstone.id] = tombstone.deleted }

        for their in theirs.credentials {
            if let deleted = ourTombstones[their.id], deleted >= their.modified { continue }
            if let position = index[their.id] {
                guard their.modified > result.credentials[position].modified else { continue }
                result.credentials[position] = try adopt(their, from: theirs, into: ours)
            } else {
                if ourTombstones[their.id] != nil {
                    result.tombstones.removeAll { $0.id == their.id }
                }
                index[their.id] = result.credentials.count
                result.credentials.append(try adopt(their, from: theirs, into: ours))
            }
        }
        for tombstone in theirs.tombstones {
            if let position = index[tombstone.id] {
                guard tombstone.deleted >= result.credentials[position].modified else { continue }
                result.credentials.remove(at: position)
                index = [:]
                for (position, credential) in result.credentials.enumerated() { index[credential.id] = position }
            }
            if let ours = ourTombstones[tombstone.id] {
                if tombstone.deleted > ours {
                    result.tombstones.removeAll { $0.id == tombstone.id }
                    result.tombstones.append(tombstone)
                }
            } else {
                result.tombstones.append(tombstone)
                ourTombstones[tombstone.id] = tombstone.deleted
            }
        }
        return result
    }

    /// Their credential with its secrets copied into our arena.
    private static func adopt(_ credential: Credential, from theirs: VaultContents, into ours: VaultContents) throws -> Credential {
        var copy = credential
        copy.secret = try theirs.secrets.withBytes(of: credential.secret) { try ours.secrets.store($0) }
        for i in copy.history.indices {
            copy.history[i].secret = try theirs.secrets.withBytes(of: credential.history[i].secret) {
                try ours.secrets.store($0)
            }
        }
        return copy
    }
}
