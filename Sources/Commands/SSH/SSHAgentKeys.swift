import Platform
import VaultAgent
import VaultCrypto
import VaultModel

/// The vault's SSH keys as the agent's ssh-agent socket serves them (`SSHAgentServer`): listed
/// and used to sign while the agent is unlocked, neither while it is locked (the public keys are
/// in the vault; a client then sees an empty list and failed signatures, and ssh goes on to its
/// other keys). A key bound to programs (`--allow-program`) is listed to and signs for those
/// programs only, as `get` gives a password; a key bound to hosts (`--host`) is offered as
/// `SSHDestination` orders it for the host the connection is bound to. The public key offered is
/// derived from the private key each time, never read from the `public key` field, so it is
/// always the one the agent signs with.
extension AgentService: SSHAgentHandler {
    public func sshIdentities(for connection: SSHAgentConnection) -> [SSHAgentProtocol.Identity] {
        guard let vault = try? unlocked(for: context.vaultPath) else { return [] }
        let chain = asker(connection.peer, of: vault)
        let keys = SSHAgentKeys.keys(in: vault).filter { $0.credential.isGiven(to: chain) }
        return SSHDestination.offered(keys, hosts: \.hosts, to: sshDestination(of: connection)).map {
            SSHAgentProtocol.Identity(keyBlob: $0.blob, comment: $0.credential.displayTitle)
        }
    }

    public func sshSign(keyBlob: [UInt8], data: [UInt8], flags: UInt32, for connection: SSHAgentConnection)
        -> [UInt8]?
    {
        guard let vault = try? unlocked(for: context.vaultPath),
            let key = SSHAgentKeys.keys(in: vault).first(where: { $0.blob == keyBlob }),
            key.credential.isGiven(to: asker(connection.peer, of: vault)),
            sshDestination(of: connection)?.mayUse(hosts: key.hosts) ?? true,
            let privateKey = try? SSHKeyItem.privateKey(of: key.credential, in: vault),
            let signature = try? SSHPrivateKey.signatureBlob(privateKey, data: data, flags: flags)
        else { return nil }
        return signature
    }

    /// Where `connection` goes, by the known_hosts files of the agent's user (read each time: a
    /// host accepted a moment ago counts); nil when it is not bound.
    func sshDestination(of connection: SSHAgentConnection) -> SSHDestination? {
        guard connection.destination != nil else { return nil }
        return SSHDestination(
            connection, knownHosts: KnownHosts.read(KnownHosts.defaultFiles(home: context.environment["HOME"])))
    }
}

/// The SSH key items of a vault with their public key blobs, in the vault's order.
enum SSHAgentKeys {
    struct Key {
        let credential: Credential
        let blob: [UInt8]
        /// The hosts it is bound to (`--host`); none: any host.
        let hosts: [String]
    }

    /// Items whose secret is not a private key pwtui reads (damaged, or edited by hand) are left
    /// out. An RSA key's blob is derived by OpenSSL each time (well under a millisecond).
    static func keys(in vault: Vault) -> [Key] {
        vault.contents.credentials.filter { $0.kind == .sshKey }.compactMap { credential in
            guard let privateKey = try? SSHKeyItem.privateKey(of: credential, in: vault),
                let blob = try? SSHPrivateKey.publicKeyBlob(privateKey)
            else { return nil }
            return Key(credential: credential, blob: blob, hosts: SSHKeyItem.hosts(of: credential))
        }
    }
}
