import SSHKeys
import VaultAgent

extension SSHDestination {
    /// Where `connection` goes, by the host keys it bound, as the user's known_hosts name them;
    /// nil when it is not bound.
    init?(_ connection: SSHAgentConnection, knownHosts: KnownHosts) {
        self.init(boundTo: connection.bindings.map(\.hostKey), knownHosts: knownHosts)
    }
}
