import Commands
import Platform
import SecretService
import VaultAgent
import VaultModel

/// A client's `Unlock` of a locked keyring, as the agent asks it: the master password where the
/// client runs (its terminal, or the tmux popup an SSH approval uses), or nothing when there is
/// nobody to ask. Asked on a thread of its own, since the user may take a minute and the bus
/// serves everyone else meanwhile.
final class AgentUnlockPrompter: SecretPrompter, Sendable {
    /// A context of the thread's own: the bus's thread uses its own at the same time.
    let makeContext: @Sendable () -> CommandContext

    init(makeContext: @escaping @Sendable () -> CommandContext) {
        self.makeContext = makeContext
    }

    func unlock(for caller: SecretCaller, answer: @escaping @Sendable (Bool) -> Void) {
        let makeContext = makeContext
        do {
            try DetachedThread.start {
                let context = makeContext()
                let request = AgentRequest.keyring(
                    vault: context.vaultPath, request: .unlock(reader: KeyringCaller(pid: caller.pid)))
                guard let reply = try? VaultAccess.ask(request, in: context), case .keyring(.done) = reply.body else {
                    return answer(false)
                }
                answer(true)
            }
        } catch {
            answer(false)
        }
    }
}
