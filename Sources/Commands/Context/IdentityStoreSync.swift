import FoundationEssentials
import Platform
import ServiceMatching
import UnicodeText
import VaultCrypto
import VaultModel

/// The identity store of the context's vault: where it is, whether it can be trusted, and
/// keeping it in step with the vault.
extension CommandContext {
    /// `$XDG_STATE_HOME/pwtui/identities/<vault>`: one store per vault file. A single store for
    /// every vault was overwritten by `list --vault other.pwtui`, after which `suggest` for the
    /// usual vault found it stale (75) until the next unlock.
    public func identityStorePath() throws -> String {
        paths.identityStoreDirectory + "/" + (try Self.identityStoreName(forVault: vaultPath))
    }

    /// The store's file name for the vault at `path`: BLAKE2b of the vault's canonical path
    /// (absolute, symlinks and `..` resolved, so every way of naming the file finds the same
    /// store), the first 16 bytes in hex. Not the vault id: a copy of a vault (a backup, the
    /// `.bak`) has the same id, and the two would overwrite each other's store.
    public static func identityStoreName(forVault path: String) throws -> String {
        let canonical = ResolvedPath.of(path)
        return Hex.string(Array(try BLAKE2b.hash(Array(canonical.utf8)).prefix(16)))
    }

    /// The identity store, when it is on and mirrors the vault file as it is now (its header is
    /// read without the password: it is not secret). Otherwise 75 with what to do about it.
    /// `filter`: build only the identities it lets through (see `IdentityStore.load`).
    public func currentIdentityStore(filter: ((EquivalentDomains) -> HostFilter)? = nil) throws -> IdentityStore {
        let (header, version) = try VaultStorage.loadVersion(vaultPath)
        guard try settings().identityStore else {
            throw CommandFailure(
                .interactionRequired, "the identity store is off (identity_store = false in \(configPath))")
        }
        let loaded: IdentityStore?
        do {
            loaded = try IdentityStore.read(from: try identityStorePath(), filter: filter)
        } catch {
            // A cache, never the user's input: damage is reported as such and repaired by an unlock.
            throw CommandFailure(
                .interactionRequired,
                "\(error); it is ignored, and any command that unlocks the vault (pwtui unlock, pwtui get) rebuilds it")
        }
        guard let store = loaded, store.isCurrent(for: header, at: version) else {
            throw CommandFailure(
                .interactionRequired,
                "the identity store is missing or older than the vault; any command that unlocks it (pwtui unlock, pwtui get) rebuilds it"
            )
        }
        return store
    }

    /// Keeps the identity store in step with `vault` (or removes it when the setting is off), when
    /// `vault` is the configured one. `saved`: just after a save, when the store is rebuilt from
    /// the vault in memory; otherwise (after opening) only a missing or stale store is. A store
    /// that cannot be written is reported, never fatal: it is a cache of what the vault holds.
    public func syncIdentities(with vault: Vault, saved: Bool) {
        // The store mirrors the configured vault only: never `demo`'s throwaway one.
        guard vault.path == vaultPath else { return }
        let identityStorePath: String
        do {
            identityStorePath = try self.identityStorePath()
        } catch {
            streams.say("pwtui: the identity store could not be located (\(error)); suggestions may be out of date")
            return
        }
        let directory = paths.identityStoreDirectory
        guard (try? settings())?.identityStore ?? true else {
            IdentityStore.removeAll(in: directory)
            return
        }
        // Before one store per vault, a single file stood where their directory goes now.
        if let status = try? FileSystem.status(directory), status.kind != .directory {
            IdentityStore.remove(at: directory)
        }
        // A save that appended a journal record appends its change to the store's journal too,
        // for the cost of the change (`IdentityStore.Change`), when the store was in step before.
        if saved, let appended = vault.lastAppended {
            let change = IdentityStore.Change(appended, in: vault)
            if (try? IdentityStore.append(
                change, after: appended.after, vaultID: vault.header.vaultID, to: identityStorePath)) == true
            {
                return
            }
        }
        // Otherwise the store is built anew from the vault in memory, never read back and
        // compared: reading and diffing the old one cost more than building it (a quarter of an
        // agent's `add` at 10,000 credentials, by perf).
        if !saved, let existing = IdentityStore.load(from: identityStorePath),
            existing.isCurrent(for: vault.header, at: vault.version)
        {
            return
        }
        do {
            try IdentityStore(vault: vault).save(to: identityStorePath)
        } catch {
            streams.say("pwtui: the identity store could not be written (\(error)); suggestions may be out of date")
        }
    }
}
