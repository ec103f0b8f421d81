import Platform
import VaultAgent
import VaultCrypto
import VaultModel

/// The vault's SSH keys as the agent's ssh-agent socket serves them (`SSHAgentServer`): listed
/// and used to sign while the agent is unlocked, neither while it is locked (the public keys are
/// in the vault; a client then sees an empty list and failed signatures, and ssh goes on to its
/// other keys). A key bound to programs (`--allow-program`) is listed to and signs for those
/// programs only, as `get` gives a password. The public key offered is derived from the private
/// key each time, never read from the `public key` field, so it is always the one the agent signs
/// with. Approval (`ssh confirm`) is stored but not yet asked: a later slice of issue 27.
extension AgentService: SSHAgentHandler {
    public func sshIdentities(peer: Int32?) -> [SSHAgentProtocol.Identity] {
        guard let vault = try? unlocked(for: context.vaultPath) else { return [] }
        let chain = asker(peer, of: vault)
        return SSHAgentKeys.keys(in: vault).filter { $0.credential.isGiven(to: chain) }.map {
            SSHAgentProtocol.Identity(keyBlob: $0.blob, comment: $0.credential.displayTitle)
        }
    }

    public func sshSign(keyBlob: [UInt8], data: [UInt8], flags: UInt32, peer: Int32?) -> [UInt8]? {
        guard let vault = try? unlocked(for: context.vaultPath),
            let key = SSHAgentKeys.keys(in: vault).first(where: { $0.blob == keyBlob }),
            key.credential.isGiven(to: asker(peer, of: vault)),
            let privateKey = try? SSHKeyItem.privateKey(of: key.credential, in: vault),
            let signature = try? SSHPrivateKey.signatureBlob(privateKey, data: data, flags: flags)
        else { return nil }
        return signature
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
