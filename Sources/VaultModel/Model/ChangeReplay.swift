import FoundationEssentials
import ServiceMatching
import Platform

// Replaying what one process changed onto what another process saved meanwhile.
//
// Several pwtui processes may open the same vault, change it, and save: a script adding
// credentials while the user edits one in another terminal, an agent answering git while `rm`
// runs. Each of them read the file at some moment and saves later; in between, another may have
// saved. Every change a command acknowledged (exit 0) must survive, so a save that finds a newer
// file on disk cannot just write its own version, and it cannot pick a winner per credential
// either: that is how four processes editing *different fields* of one credential lost the
// title edits (the winner carried the title it had read, not the one saved meanwhile), and how
// `rm` racing `edit` brought the removed credential back.
//
// So a `Vault` keeps, beside its contents, the list of changes made to them since they matched
// the file: each at the level a command states it — set these fields, add or remove this
// service, replace the secret, add a credential, remove one, change the equivalent domains. When
// the save finds another version on disk (under the save lock, so nothing else can save until it
// is done), that version becomes the base and the changes are replayed onto it in the order they
// were made. A field edit touches only the fields it names; adding a service that is already
// there, or removing one that is gone, is a no-op; removing a credential that is already removed
// is one too. The outcome is what the commands would have produced had they run one after the
// other, in the order of their saves: for the same field, the later save wins, which is the
// order the user saw them acknowledged.
//
// Some changes have no meaning on the other version: editing (or replacing the secret of) a
// credential that another process removed, an edit that would leave a credential without any
// service, an added id that is already taken. The replay stops there and the save fails with a
// conflict that names the credential, before anything is written: such a command fails instead
// of reporting success.
//
// Secrets live in an arena per decrypted version. The base's arena is kept, and the secrets the
// replayed changes bring (a new credential's, a replaced one) are copied into it, so the replayed
// contents reference one arena.

/// One change made to a vault's contents, as replayed by `ChangeReplay`.
enum VaultChange {
    /// A new credential; its secret and history are in the arena of the contents it was made in.
    case add(Credential)
    /// Fields of a credential changed by `body`, which never touches the secret or the history.
    case update(UUID, at: Timestamp, body: (inout Credential) throws -> Void)
    /// A new secret (in the arena of the contents it was made in); the old one goes to history.
    case replaceSecret(UUID, SecretReference, at: Timestamp)
    case remove(UUID, at: Timestamp)
    /// A new authenticator key (in the arena of the contents it was made in), or nil: removed.
    case setOneTimeKey(UUID, OneTimeKey?, at: Timestamp)
    /// A named field set (a secret value in the arena of the contents it was made in), or nil: removed.
    case setField(UUID, name: String, NamedField.Value?, at: Timestamp)
    case equivalents(at: Timestamp, body: (inout EquivalentDomains, Timestamp) -> Void)
}

enum ChangeReplay {
    /// `changes` (made to `ours`, whose arena holds their secrets) replayed onto `theirs`.
    static func replay(_ changes: [VaultChange], from ours: VaultContents, onto theirs: VaultContents, path: String)
        throws -> VaultContents
    {
        var result = theirs
        func index(of id: UUID, for what: String) throws -> Int {
            if let index = result.credentials.firstIndex(where: { $0.id == id }) { return index }
            let removed = result.tombstones.contains { $0.id == id }
            throw VaultError.conflict(
                path: path,
                reason: "credential \(id.uuidString.lowercased()) was "
                    + (removed ? "removed" : "replaced") + " by another process meanwhile, so \(what) was not applied")
        }
        for change in changes {
            switch change {
            case .add(let credential):
                guard result.credential(withID: credential.id) == nil else {
                    throw VaultError.conflict(
                        path: path, reason: "another process added a credential with the same id; try again")
                }
                var copy = credential
                copy.secret = try move(credential.secret, from: ours, into: result)
                for i in copy.history.indices {
                    copy.history[i].secret = try move(copy.history[i].secret, from: ours, into: result)
                }
                if let totp = copy.totp { copy.totp?.key = try move(totp.key, from: ours, into: result) }
                for i in copy.totpHistory.indices {
                    copy.totpHistory[i].key.key = try move(copy.totpHistory[i].key.key, from: ours, into: result)
                }
                for i in copy.fields.indices {
                    if let secret = copy.fields[i].secret {
                        copy.fields[i].value = .secret(try move(secret, from: ours, into: result))
                    }
                    for j in copy.fields[i].history.indices {
                        copy.fields[i].history[j].secret = try move(
                            copy.fields[i].history[j].secret, from: ours, into: result)
                    }
                }
                result.tombstones.removeAll { $0.id == credential.id }
                result.credentials.append(copy)
            case .update(let id, let time, let body):
                let position = try index(of: id, for: "the edit")
                var credential = result.credentials[position]
                try body(&credential)
                guard credential.isNamed else {
                    throw VaultError.conflict(
                        path: path,
                        reason: "with the services another process changed meanwhile, "
                            + "the edit would leave \(credential.displayTitle) without any service or title; keep or add one"
                    )
                }
                credential.modified = max(time, credential.modified)
                result.credentials[position] = credential
            case .replaceSecret(let id, let secret, let time):
                let position = try index(of: id, for: "the new password")
                var credential = result.credentials[position]
                credential.history.append(PreviousSecret(secret: credential.secret, replaced: time))
                credential.secret = try move(secret, from: ours, into: result)
                credential.modified = max(time, credential.modified)
                result.credentials[position] = credential
            case .setOneTimeKey(let id, let totp, let time):
                let position = try index(of: id, for: "the authenticator key")
                var moved = totp
                if let totp { moved?.key = try move(totp.key, from: ours, into: result) }
                result.credentials[position].replaceOneTimeKey(with: moved, at: time)
                result.credentials[position].modified = max(time, result.credentials[position].modified)
            case .setField(let id, let name, let value, let time):
                let position = try index(of: id, for: "the field '\(name)'")
                var credential = result.credentials[position]
                switch value {
                case .text(let text)?: credential.set(NamedField(name: name, value: .text(text)), at: time)
                case .secret(let secret)?:
                    credential.set(
                        NamedField(name: name, value: .secret(try move(secret, from: ours, into: result))), at: time)
                case nil: credential.fields.removeAll { $0.isNamed(name) }
                }
                credential.modified = max(time, credential.modified)
                result.credentials[position] = credential
            case .remove(let id, let time):
                // Replayed on this machine's newer file: the removal was saved last, so it removes
                // the version it finds (the same-field rule: the later save wins).
                let seen = result.credentials.first { $0.id == id }?.modified
                result.credentials.removeAll { $0.id == id }
                if !result.tombstones.contains(where: { $0.id == id }) {
                    result.tombstones.append(Tombstone(id: id, deleted: time, seen: seen))
                }
            case .equivalents(let time, let body):
                body(&result.equivalents, time)
            }
        }
        return result
    }

    private static func move(_ secret: SecretReference, from ours: VaultContents, into result: VaultContents) throws
        -> SecretReference
    {
        try ours.secrets.withBytes(of: secret) { try result.secrets.store($0) }
    }
}
