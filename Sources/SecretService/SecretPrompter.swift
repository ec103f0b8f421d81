/// Where an unlock is asked for, when a client's `Unlock` names something locked: pwtui's agent
/// will ask the user where they are (a terminal, the tmux popup SSH approval uses) and decline
/// when there is nobody to ask. The service turns it into the Secret Service's Prompt object:
/// the client calls `Prompt`, the prompter is asked, and its answer becomes `Completed`.
public protocol SecretPrompter: AnyObject, Sendable {
    /// Asks for the store to be unlocked for `caller`. Called on the bus's thread, it must not
    /// wait there: `answer` is called once, from any thread, with whether the store is unlocked.
    func unlock(for caller: SecretCaller, answer: @escaping @Sendable (Bool) -> Void)
}
