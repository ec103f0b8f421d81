import Commands
import Platform
import SecretService

/// `pwtui secret-service`: serves `org.freedesktop.secrets` on the session bus
/// (`DBUS_SESSION_BUS_ADDRESS`) from the agent that holds the context's vault, until SIGTERM,
/// SIGINT or SIGHUP, or until the bus ends (the session's end). The vault's items of the kind
/// `keyring` are its items (docs/secret-service.md).
public enum SecretServiceRunner {
    /// `makeContext` makes the contexts it asks the agent with (one per thread: a context is not
    /// shared between threads).
    public static func run(
        _ makeContext: @escaping @Sendable () -> CommandContext, ready: (String) -> Void = { _ in }
    ) throws {
        SignalFlag.watchTermination()
        let context = makeContext()
        // Three or four requests for each secret a program reads.
        context.asksAgentOften = true
        try SecretServiceServer.run(
            in: context.environment, store: AgentItemStore(context: context, makeContext: makeContext),
            prompter: AgentUnlockPrompter(makeContext: makeContext), ready: ready,
            while: { SignalFlag.received == nil })
    }
}
