import Platform

/// `pwtui ssh socket`: the path of the agent's ssh-agent socket, for
/// `export SSH_AUTH_SOCK=$(pwtui ssh socket)` or `IdentityAgent` in ssh_config. Printed whether
/// or not an agent runs: ssh_config is written once, the agent started later.
public struct SSHSocket {
    public init() {}

    public func run(in context: CommandContext) throws {
        try context.streams.write(context.paths.sshAgentSocket + "\n")
    }
}
