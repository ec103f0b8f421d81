import VaultModel

/// How `ssh edit` and `ssh export` name a key: by its title, as `ssh list` shows it and every
/// message of the agent's calls it, or by its id or a unique id prefix. A title shared by several
/// SSH keys is refused with their ids; anything else is looked up as an id. Only SSH keys answer
/// to a title here: a login of the same title is not what `ssh` commands are about.
enum SSHKeyName {
    /// The SSH key `name` names among `identities`; `byID` looks an id or prefix up.
    static func resolve(
        _ name: String, among identities: [IdentityStore.Identity],
        byID: (String) throws -> IdentityStore.Identity
    ) throws -> IdentityStore.Identity {
        let titled = identities.filter { $0.kind == .sshKey && $0.title == name }
        if titled.count > 1 {
            let ids = titled.map { $0.id.uuidString.lowercased().prefix(8) }.joined(separator: ", ")
            throw CommandFailure(.usage, "\(titled.count) SSH keys are titled '\(name)' (\(ids)); give an id")
        }
        let identity = try titled.first ?? byID(name)
        guard identity.kind == .sshKey else {
            throw CommandFailure(
                .usage,
                "\(identity.displayTitle) is a \(identity.kind.name), not an SSH key (`pwtui ssh list` lists them)")
        }
        return identity
    }

    /// Through `access` (the agent, or a vault opened here).
    static func resolve(_ name: String, through access: VaultAccess) throws -> IdentityStore.Identity {
        try resolve(name, among: try access.identities().identities, byID: access.identity(of:))
    }

    /// In a vault opened here.
    static func resolve(_ name: String, in vault: Vault) throws -> Credential {
        let identity = try resolve(
            name, among: vault.contents.credentials.map(IdentityStore.Identity.init),
            byID: { IdentityStore.Identity(try vault.credential(id: $0)) })
        return try vault.credential(id: identity.id.uuidString)
    }
}
