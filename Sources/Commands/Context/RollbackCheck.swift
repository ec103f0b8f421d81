import VaultModel

/// The rollback warning: a vault opened at a lower generation than this machine has seen of it
/// is an older copy (see `GenerationMemory`). It is a warning, not a refusal: restoring a
/// backup on purpose is legitimate, and the user is the one who knows.
///
/// Every way a vault's file reaches this machine passes here: opening it (`openVault`, the
/// agent's unlock and its reload after another process saved), `get` and the other commands
/// answered by an unlocked agent (the file's header, read by the client, which has a stderr),
/// `sync` (what it committed and what git checked out), `merge` and git's merge driver (each copy).
extension CommandContext {
    /// Warns on stderr when `vault` is older than what was seen here, and remembers its
    /// generation otherwise. Failing to read or write the memory must not fail the command.
    public func checkRollback(of vault: Vault) {
        checkRollback(vault.header, at: vault.version, of: vault.path)
    }

    /// The same for a file's header, at `version` (its generation when not given: a snapshot
    /// alone): `name` says which copy it is (a path, or "the copy git merged in"). Returns the
    /// higher version seen when it warned.
    @discardableResult
    public func checkRollback(
        _ header: VaultHeader, at version: VaultVersion? = nil, of name: String,
        consequence: String = "changes made since may be missing"
    ) -> VaultVersion? {
        let remembered = GenerationMemory.load(from: paths.generationsFile)
        var memory = remembered
        let version = version ?? VaultVersion(generation: header.generation)
        if let seen = memory.opened(header, at: version) {
            streams.say(
                "pwtui: warning: \(name) is \(version) of this vault, but \(seen) "
                    + "was seen on this machine: it is an older copy (a stale backup, or a sync that served an old file), "
                    + "and \(consequence). If you did not restore it on purpose, look for the newer copy "
                    + "(its .bak, another machine, the sync service's history, git's log) and merge it with 'pwtui merge FILE'."
            )
            return seen
        }
        // Written only when it changed: opening a vault as it was last saved here writes nothing.
        if memory != remembered { try? memory.save(to: paths.generationsFile) }
        return nil
    }

    /// The header of the vault file checked as above, when the file was not opened here (an
    /// agent answered): a file that cannot be read is for the command itself to report.
    public func checkRollbackOfFile() {
        guard let (header, version) = try? VaultStorage.loadVersion(vaultPath) else { return }
        checkRollback(header, at: version, of: vaultPath)
    }

    /// Remembers the version a vault was saved at (`header`'s generation when not given: a
    /// snapshot alone).
    func rememberSaved(_ header: VaultHeader, at version: VaultVersion? = nil) {
        var memory = GenerationMemory.load(from: paths.generationsFile)
        memory.saved(header, at: version ?? VaultVersion(generation: header.generation))
        try? memory.save(to: paths.generationsFile)
    }
}
