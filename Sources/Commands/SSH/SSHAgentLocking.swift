import VaultAgent
import VaultCrypto

/// `ssh-add -x` and `ssh-add -X` on the agent's ssh-agent socket (`SSHAgentHandler`). Locking
/// drops the vault as `pwtui agent lock` does: with it go the keys, so whatever password the lock
/// was given, unlocking needs the vault's master password (OpenSSH's own agent keeps its keys
/// and unlocks with the lock's password; pwtui's cannot, and says so in docs/ssh.md). Both take
/// the same paths as pwtui's own `lock` and `unlock` requests.
extension AgentService {
    public func sshLock() {
        // Zero bytes cannot fail to allocate but the type says they may: then lock directly.
        guard var none = try? SecureBytes(zeros: 0) else { return stop(within: .seconds(1)) }
        _ = handle(.lock, payload: &none)
    }

    public func sshUnlock(password: consuming SecureBytes) -> Bool {
        var password = password
        guard case .done = handle(.unlock, payload: &password).reply else { return false }
        return true
    }
}
