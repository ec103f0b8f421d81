import ArgumentParser
import VaultModel

/// What `ssh generate` and `ssh import` both ask of a new key: its title, its hosts and its
/// approval policy.
struct SSHKeyOptions: ParsableArguments {
    @Option(help: "Its name in the vault, and its public key's comment.")
    var title: String

    @Option(name: .customLong("host"), help: "A host it is for (repeatable).")
    var hosts: [String] = []

    @Option(
        help: "Approval of its signatures: each, session (once per program and host until the agent locks) or never.")
    var confirm: SSHKeyItem.ConfirmPolicy = .session
}
