import Platform
import SSHKeys
import VaultAgent
import VaultCrypto
import VaultModel

/// The vault's SSH keys as the agent's ssh-agent socket serves them (`SSHAgentServer`). Listed
/// while the agent is unlocked from the vault, and while locked from the identity store's public
/// halves (`IdentityStore.SSHPublicKey`: no key bound to programs, none when the store is off or
/// stale). A signature is made only with the vault open, after the approval its policy asks for
/// (`SSHSignApproval`). A key bound to programs (`--allow-program`) is listed to and signs for
/// those programs only, as `get` gives a password; a key bound to hosts (`--host`) is offered as
/// `SSHDestination` orders it for the host the connection is bound to. The public key offered
/// while unlocked is derived from the private key each time, never read from the `public key`
/// field, so it is always the one the agent signs with.
extension AgentService: SSHAgentHandler {
    public func sshIdentities(for connection: SSHAgentConnection) -> [SSHAgentProtocol.Identity] {
        let destination = sshDestination(of: connection)
        return readingAny { vault in
            guard let vault else {
                return SSHDestination.offered(lockedSSHKeys(), hosts: \.hosts, to: destination).map {
                    SSHAgentProtocol.Identity(keyBlob: $0.keyBlob, comment: $0.title)
                }
            }
            guard let chain = try? asker(connection.peer, of: vault) else { return [] }
            let keys = SSHAgentKeys.keys(in: vault).filter { $0.credential.isGiven(to: chain) }
            return SSHDestination.offered(keys, hosts: \.hosts, to: destination).map {
                SSHAgentProtocol.Identity(keyBlob: $0.blob, comment: $0.credential.displayTitle)
            }
        }
    }

    /// Where `connection` goes, by the known_hosts files of the agent's user (read each time: a
    /// host accepted a moment ago counts); nil when it is not bound.
    func sshDestination(of connection: SSHAgentConnection) -> SSHDestination? {
        guard connection.destination != nil else { return nil }
        return SSHDestination(
            connection, knownHosts: KnownHosts.read(KnownHosts.defaultFiles(home: context.environment["HOME"])))
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
