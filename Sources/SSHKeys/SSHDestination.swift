import FoundationEssentials
import VaultCrypto

/// The host a bound ssh connection authenticates to (its last `session-bind@openssh.com`), as the
/// user's known_hosts files name its host key, and which of the vault's keys go to it.
///
/// Which keys a connection is offered, in order (`offered`):
/// - **Not bound** (ssh-add, ssh-keygen -Y sign, an ssh older than 8.9): every key, in the
///   vault's order. There is no destination to choose by.
/// - **Bound to a host key the user knows** (a known_hosts line holds it): first the keys bound
///   to that host (`--host`, matched against the line's names and hashes), then the keys bound to
///   no host. Keys bound to other hosts are not offered at all: they cannot log in here, each one
///   tried is one of the server's `MaxAuthTries` (6 by default: "Too many authentication
///   failures"), and each one offered tells the server a key the user holds.
/// - **Bound to a host key the agent finds in no known_hosts** (a `UserKnownHostsFile` elsewhere,
///   `StrictHostKeyChecking no` with `/dev/null`): the keys bound to no host, then the bound ones.
///   The agent cannot tell which host this is, and refusing every bound key would lock the user
///   out for a file it does not read.
///
/// A signature follows the same rule: a key bound to other hosts does not sign on a connection
/// bound to a known host (`mayUse`).
public struct SSHDestination {
    public let hostKey: [UInt8]
    /// The host keys of the hops before it, when the agent was forwarded (`isForwarding`).
    public let forwardedThrough: [[UInt8]]
    public let knownHosts: KnownHosts

    /// The destination of a connection bound to `hostKeys`, in the order it bound them (the
    /// hops it was forwarded through, then the host); nil when it is not bound.
    public init?(boundTo hostKeys: [[UInt8]], knownHosts: KnownHosts) {
        guard let last = hostKeys.last else { return nil }
        hostKey = last
        forwardedThrough = Array(hostKeys.dropLast())
        self.knownHosts = knownHosts
    }

    /// Whether the user has accepted this host key under some name.
    public var isRecognized: Bool { knownHosts.contains(hostKey) }

    /// Whether a key bound to `hosts` is for this destination.
    public func isFor(hosts: [String]) -> Bool {
        hosts.contains { knownHosts.knows($0, as: hostKey) }
    }

    /// Whether a key bound to `hosts` (none: any host) may sign on this connection.
    public func mayUse(hosts: [String]) -> Bool {
        hosts.isEmpty || !isRecognized || isFor(hosts: hosts)
    }

    /// The destination as the user would name it, for an approval: the first name known_hosts
    /// gives its key, else the bound host of the key that matched (hashed lines hide the name),
    /// else its fingerprint; with the hops it was forwarded through.
    public func displayName(keyHosts: [String] = []) -> String {
        func name(of key: [UInt8]) -> String {
            knownHosts.names(of: key).first ?? "an unknown host (\(SSHFingerprint.of(key)))"
        }
        var shown =
            knownHosts.names(of: hostKey).first
            ?? keyHosts.first { knownHosts.knows($0, as: hostKey) }
            ?? name(of: hostKey)
        if !forwardedThrough.isEmpty {
            shown += ", forwarded through " + forwardedThrough.map(name(of:)).joined(separator: " → ")
        }
        return shown
    }

    /// `keys` in the order this destination is offered them (see above); nil: not bound.
    public static func offered<Key>(_ keys: [Key], hosts: (Key) -> [String], to destination: SSHDestination?) -> [Key] {
        guard let destination else { return keys }
        let unbound = keys.filter { hosts($0).isEmpty }
        let bound = keys.filter { !hosts($0).isEmpty }
        guard destination.isRecognized else { return unbound + bound }
        return bound.filter { destination.isFor(hosts: hosts($0)) } + unbound
    }
}
