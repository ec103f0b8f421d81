import Passwords
import ServiceMatching
import VaultAgent
import VaultCrypto
import VaultModel

/// `pwtui passwd`: a new master password (and optionally unlock cost): new salt, new keys,
/// everything re-encrypted, with a note on disk meanwhile (`PasswordChangeMarker`).
public struct ChangeMasterPassword {
    /// Where the new password comes from; nil: typed twice on the terminal.
    public var newPasswordFD: Int32?
    public var parameters: KDFParameters?
    /// Keep a new master password under `MasterPasswordPolicy.minimumBits` (refused otherwise).
    public var allowWeak: Bool

    public init(newPasswordFD: Int32?, parameters: KDFParameters?, allowWeak: Bool = false) {
        self.newPasswordFD = newPasswordFD
        self.parameters = parameters
        self.allowWeak = allowWeak
    }

    public func run(in context: CommandContext) throws {
        let vault = try context.openVault()
        let newPassword = try NewMasterPassword.read(
            from: newPasswordFD, option: "--new-master-password-fd",
            heading: "New master password", allowWeak: allowWeak, in: context)
        try Self.rekey(vault, to: newPassword, parameters: parameters, in: context)
        context.streams.say("Master password changed for \(vault.path).")
    }

    /// The one re-key, for `passwd` and `configure`'s new unlock cost alike: new salt and keys,
    /// everything re-encrypted, with the note on disk meanwhile (so a kill midway is reported at
    /// the next unlock), the new generation remembered, and an agent holding the old keys locked.
    static func rekey(
        _ vault: Vault, to newPassword: borrowing SecureBytes, parameters: KDFParameters?, in context: CommandContext
    ) throws {
        let oldSalt = vault.header.salt
        let marker = try PasswordChangeMarker.begin(vaultPath: vault.path, salt: oldSalt)
        do {
            try vault.changePassword(to: newPassword, parameters: parameters)
        } catch {
            // Left in place only when the new password is in force despite the error, for the
            // next unlock to say so.
            if !PasswordChangeMarker.vault(at: vault.path, changedFrom: oldSalt) { marker.remove() }
            throw error
        }
        context.rememberSaved(vault.header, at: vault.version)
        context.syncIdentities(with: vault, saved: true)
        marker.remove()
        lockAgent(holding: vault.path, context)
    }

    /// An agent unlocked with the old keys would notice only at its next request, and until then
    /// `agent status` would call it unlocked: it is locked now, so that status tells the truth.
    /// Asked even with `--master-password-fd`: the agent's keys are stale either way.
    private static func lockAgent(holding path: String, _ context: CommandContext) {
        guard VaultAccess.lockAgent(holding: path, in: context) else { return }
        context.streams.say(
            "The agent held the old keys and is now locked; `pwtui unlock` with the master password now in force.")
    }
}
