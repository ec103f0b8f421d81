import FoundationEssentials
import Platform
import ServiceMatching
import VaultCrypto
import VaultModel

/// What may be read from an open vault, each written once: the agent runs these in its read turns
/// (`AgentService`) and a command on the vault it opened itself (`VaultAccess.local`), so the two
/// cannot drift (issue 35: seven operations written twice had). Writes are `CredentialChange`,
/// `EquivalentsChange`, `ImportCredentials` and the audit, shared the same way.
///
/// `asking` is who asks, for credentials bound to programs: the agent's peer, or this process.
/// It is looked up only when something needs it (a bound credential makes it read /proc).
struct VaultReading {
    let vault: Vault
    let context: CommandContext
    let asking: () throws -> ProcessChain

    /// In this process: who asks is this process's chain, when the vault binds anything.
    static func here(_ vault: Vault, _ context: CommandContext) -> VaultReading {
        VaultReading(vault: vault, context: context) {
            vault.contents.hasBoundCredentials ? context.processChain(CurrentProcess.id) : ProcessChain(members: [])
        }
    }

    /// `get`: the credential `query` names (and how many were as good), `field` of it rendered in
    /// protected memory. A use is recorded for the query's services.
    func answer(_ query: CredentialQuery, field: CredentialField) throws -> Answer {
        var query = query.asking(for: field)
        query.askingProgram = try asking()
        let (credential, tied) = try context.rankedAnswer(query, in: vault)
        return Answer(credential: credential, tied: tied, rendered: try field.render(credential, from: vault))
    }

    struct Answer: ~Copyable {
        let credential: Credential
        let tied: Int
        var rendered: SecureBytes
    }

    /// `field` of each credential named by id (`run`, `inject`), appended to `values` without the
    /// newline `get` ends it with; their lengths, in order. A credential bound to other programs is
    /// withheld, as from `get`; an SSH key's public fields are no secret, listed whatever it is bound to.
    func append(ids: [String], fields: [CredentialField], to values: inout SecureBytes) throws -> [Int] {
        guard ids.count == fields.count else { throw VaultError.invalidRequest("as many fields as ids, please") }
        let chain = try asking()
        return try zip(ids, fields).map { id, field in
            let listed = try vault.credential(id: id)
            var query = CredentialQuery(id: id)
            query.askingProgram = chain
            let credential =
                SSHKeyItem.isPublic(field, of: listed) ? listed : try context.rankedAnswer(query, in: vault).credential
            let start = values.count
            try field.render(credential, from: vault).withUnsafeBytes {
                try values.append(contentsOf: CredentialField.value(ofRendered: $0))
            }
            return values.count - start
        }
    }

    /// Every identity (with `username`, only that account's) and the equivalent domains.
    /// `keepingTable`: as `Vault.positions(ofUsername:keepingTable:)` (the agent's vault).
    func identities(username: String?, keepingTable: Bool = false) -> (
        identities: [IdentityStore.Identity], equivalents: EquivalentDomains
    ) {
        // One account's (an add's duplicate check) read in place or looked up: a filter over the
        // credentials themselves copies each to ask its username, two dozen retains apiece.
        let all = vault.contents.credentials
        let credentials =
            username.map { name in vault.positions(ofUsername: name, keepingTable: keepingTable).map { all[$0] } }
            ?? all
        return (credentials.map(IdentityStore.Identity.init), vault.contents.equivalents)
    }

    /// One credential's identity, by id or unique prefix.
    func identity(of id: String) throws -> IdentityStore.Identity {
        IdentityStore.Identity(try vault.credential(id: id))
    }

    /// `show` and `history`: `view` of the credential `id`, in protected memory. A revealed
    /// password is given like `get` gives it: to the programs it is bound to.
    func render(_ view: CredentialView, of id: String) throws -> SecureBytes {
        let credential = try vault.credential(id: id)
        if view.reveal { try credential.requireGiven(to: try asking()) }
        let lastUsed = context.usageHistory.read().lastUsed(credential.id)
        return try view.render(credential, from: vault, lastUsed: lastUsed)
    }

    /// The picker's detail screen: the credential `id` without its secrets.
    func outline(of id: String) throws -> CredentialOutline {
        CredentialOutline(try vault.credential(id: id))
    }

    /// The secrets the detail screen may draw of the credential `id`, one after the other in
    /// `CredentialOutline.revealable`'s order, with their lengths and the outline they belong
    /// to (the client checks it is the one it shows). Given like a revealed `show`.
    func reveal(_ id: String) throws -> Revealed {
        let credential = try vault.credential(id: id)
        try credential.requireGiven(to: try asking())
        let references = CredentialOutline.revealable(credential)
        var secrets = try SecureBytes(capacity: references.reduce(0) { $0 + $1.count })
        for reference in references {
            try vault.withSecret(reference) { try secrets.append(contentsOf: $0) }
        }
        return Revealed(outline: CredentialOutline(credential), lengths: references.map(\.count), secrets: secrets)
    }

    struct Revealed: ~Copyable {
        let outline: CredentialOutline
        let lengths: [Int]
        var secrets: SecureBytes
    }
}
