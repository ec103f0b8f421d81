import FoundationEssentials
import ServiceMatching
import VaultCrypto
import VaultModel

/// Opening and saving the session's vault, with the identity store kept in step.
extension Session {
    /// Opens the vault with the master password, and rebuilds the identity store if it is
    /// missing or stale.
    public func openVault() throws -> Vault {
        let path = vaultPath
        // A missing vault is reported before asking for a password nobody can use.
        try VaultStorage.requireVaultFile(path)
        // Before the prompt: which master password to type is what it is about.
        let interrupted = PasswordChangeMarker.pending(vaultPath: path)
        if let interrupted { StandardError.say(interrupted.notice) }
        let vault = try withMasterPassword { password in
            let vault = try Vault.open(at: path, password: password)
            AgentControl.keepUnlocked(with: password, in: self)
            return vault
        }
        interrupted?.marker.remove()
        checkRollback(of: vault)
        syncIdentities(with: vault, saved: false)
        return vault
    }

    /// Saves with the save protocol, then the identity store.
    public func save(_ vault: Vault) throws {
        do {
            try vault.save()
        } catch let error as VaultError where error.isSavedNotDurable {
            // Saved, durability unconfirmed: the change is in force, so the store follows it.
            rememberSaved(vault.header)
            syncIdentities(with: vault, saved: true)
            throw error
        }
        rememberSaved(vault.header)
        syncIdentities(with: vault, saved: true)
    }
}
