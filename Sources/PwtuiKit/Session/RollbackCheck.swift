import VaultModel

/// The rollback warning: a vault opened at a lower generation than this machine has seen of it
/// is an older copy (see `GenerationMemory`). It is a warning, not a refusal: restoring a
/// backup on purpose is legitimate, and the user is the one who knows.
extension Session {
    /// Warns on stderr when `vault` is older than what was seen here, and remembers its
    /// generation otherwise. Failing to read or write the memory must not fail the command.
    public func checkRollback(of vault: Vault) {
        let remembered = GenerationMemory.load(from: paths.generationsFile)
        var memory = remembered
        if let seen = memory.opened(vault.header) {
            StandardError.say("pwtui: warning: \(vault.path) is generation \(vault.header.generation) of this vault, but generation \(seen) "
                + "was seen on this machine: it is an older copy (a stale backup, or a sync that served an old file), "
                + "and changes made since may be missing. If you did not restore it on purpose, look for the newer copy "
                + "(its .bak, another machine, the sync service's history) and merge it with 'pwtui merge FILE'.")
            return
        }
        // Written only when it changed: opening a vault as it was last saved here writes nothing.
        if memory != remembered { try? memory.save(to: paths.generationsFile) }
    }

    /// Remembers the generation a vault was saved at (`header`).
    func rememberSaved(_ header: VaultHeader) {
        var memory = GenerationMemory.load(from: paths.generationsFile)
        memory.saved(header)
        try? memory.save(to: paths.generationsFile)
    }
}
