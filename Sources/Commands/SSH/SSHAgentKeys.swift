import Platform
import VaultAgent
import VaultCrypto
import VaultModel

/// The vault's SSH keys as the agent's ssh-agent socket serves them (`SSHAgentServer`). Listed
/// while the agent is unlocked from the vault, and while locked from the identity store's public
/// halves (`IdentityStore.SSHPublicKey`: no key bound to programs, none when the store is off or
/// stale). A signature is made only with the vault open, after the approval its policy asks for
/// (`SSHSignApproval`). A key bound to programs (`--allow-program`) is listed to and signs for
/// those programs only, as `get` gives a password. The public key offered while unlocked is
/// derived from the private key each time, never read from the `public key` field, so it is
/// always the one the agent signs with.
extension AgentService: SSHAgentHandler {
    public func sshIdentities(peer: Int32?) -> [SSHAgentProtocol.Identity] {
        guard let vault = try? unlocked(for: context.vaultPath) else {
            return isUnlocked ? [] : lockedSSHKeys().map { .init(keyBlob: $0.keyBlob, comment: $0.title) }
        }
        let chain = asker(peer, of: vault)
        return SSHAgentKeys.keys(in: vault).filter { $0.credential.isGiven(to: chain) }.map {
            SSHAgentProtocol.Identity(keyBlob: $0.blob, comment: $0.credential.displayTitle)
        }
    }

    /// The SSH keys listed while locked: the identity store's, when it mirrors the vault file.
    func lockedSSHKeys() -> [IdentityStore.SSHPublicKey] {
        (try? context.currentIdentityStore())?.sshKeys ?? []
    }
}

/// The SSH key items of a vault with their public key blobs, in the vault's order.
enum SSHAgentKeys {
    struct Key {
        let credential: Credential
        let blob: [UInt8]
    }

    /// Items whose secret is not a private key pwtui reads (damaged, or edited by hand) are left
    /// out. An RSA key's blob is derived by OpenSSL each time (well under a millisecond).
    static func keys(in vault: Vault) -> [Key] {
        vault.contents.credentials.filter { $0.kind == .sshKey }.compactMap { credential in
            guard let privateKey = try? SSHKeyItem.privateKey(of: credential, in: vault),
                let blob = try? SSHPrivateKey.publicKeyBlob(privateKey)
            else { return nil }
            return Key(credential: credential, blob: blob)
        }
    }
}
