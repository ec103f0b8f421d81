extension Credential {
    /// The credential with every secret it references (password, its history, the
    /// authenticator key and its history, secret fields and their history) copied from `source`,
    /// the arena its references point into, to `destination`, and its references pointing there:
    /// what an import adopts, and what a journal record brings into the open vault.
    func copyingSecrets(from source: SecretArena, into destination: SecretArena) throws -> Credential {
        var copy = self
        let store = { (reference: SecretReference) throws -> SecretReference in
            try source.withBytes(of: reference) { try destination.store($0) }
        }
        copy.secret = try store(secret)
        for index in copy.history.indices { copy.history[index].secret = try store(copy.history[index].secret) }
        if let totp { copy.totp = OneTimeKey(parameters: totp.parameters, key: try store(totp.key)) }
        for index in copy.totpHistory.indices {
            copy.totpHistory[index].key.key = try store(copy.totpHistory[index].key.key)
        }
        for index in copy.fields.indices {
            if let secret = copy.fields[index].secret { copy.fields[index].value = .secret(try store(secret)) }
            for old in copy.fields[index].history.indices {
                copy.fields[index].history[old].secret = try store(copy.fields[index].history[old].secret)
            }
        }
        return copy
    }
}
