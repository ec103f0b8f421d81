import FoundationEssentials
import ServiceMatching
import VaultCrypto
import VaultModel

/// Opening and saving the context's vault, with the identity store kept in step.
///
/// One path opens a vault with a master password (docs/ARCHITECTURE.md: a concept has one home):
/// every command, the picker's unlock screen, git's credential helper, `configure` and the agent's
/// unlock go through `open(_:password:interrupted:)`, so each does the same checks — a `passwd`
/// killed midway said before the password is asked and its note removed once the vault opened, and
/// the generation (rollback) check. A file read without a password (an agent's reload of what
/// another process saved, the header behind an agent's answer, git's copies) gets the generation
/// check in `RollbackCheck`.
extension CommandContext {
    /// Opens the vault with the master password, and rebuilds the identity store if it is
    /// missing or stale.
    public func openVault() throws -> Vault {
        let path = vaultPath
        // A missing vault is reported before asking for a password nobody can use.
        try VaultStorage.requireVaultFile(path)
        let interrupted = interruptedPasswd(of: path)
        return try withMasterPassword { password in
            let vault = try open(path, password: password, interrupted: interrupted)
            AgentControl.keepUnlocked(with: password, in: self)
            return vault
        }
    }

    /// A `passwd` killed midway on `path`, said on stderr: before the prompt, since which master
    /// password to type is what it is about.
    func interruptedPasswd(of path: String) -> PasswordChangeMarker? {
        guard let interrupted = PasswordChangeMarker.pending(vaultPath: path) else { return nil }
        streams.say(interrupted.notice)
        return interrupted.marker
    }

    /// The one opening: `path` with `password`; then the interrupted `passwd`'s note goes (the
    /// vault opened, so the person knows the password in force), and for the context's vault
    /// the generation check and the identity store. A throwaway vault (`demo`) gets neither.
    func open(_ path: String, password: borrowing SecureBytes, interrupted: PasswordChangeMarker?) throws -> Vault {
        let vault = try Vault.open(at: path, password: password)
        interrupted?.remove()
        if path == vaultPath {
            checkRollback(of: vault)
            syncIdentities(with: vault, saved: false)
        }
        return vault
    }

    /// Saves with the save protocol, then the identity store. `lockHeld`: as `Vault.save`.
    /// `compacting`: a new snapshot even with nothing to append (`Vault.compact`).
    public func save(_ vault: Vault, lockHeld: Bool = false, compacting: Bool = false) throws {
        do {
            if compacting { try vault.compact(lockHeld: lockHeld) } else { try vault.save(lockHeld: lockHeld) }
        } catch let error as VaultError where error.isSavedNotDurable {
            // Saved, durability unconfirmed: the change is in force, so the store follows it.
            rememberSaved(vault.header, at: vault.version)
            syncIdentities(with: vault, saved: true)
            throw error
        }
        rememberSaved(vault.header, at: vault.version)
        syncIdentities(with: vault, saved: true)
    }
}
