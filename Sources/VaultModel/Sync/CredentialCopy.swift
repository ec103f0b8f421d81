/// One copy's version of a credential, with the arena its secrets are in: what a reconciliation
/// compares field by field (a `SecretReference` means something only with its arena).
struct CredentialCopy: @unchecked Sendable {
    // @unchecked: the arena is a class that is only read while a merge runs.
    let credential: Credential
    let arena: SecretArena
}
