import ArgumentParser
import Foundation
import TUI
import VaultCrypto
import VaultModel
import ServiceMatching
import Platform

/// Options every command takes: which vault, and where the master password comes from.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The vault file (default: $PWTUI_VAULT, else $XDG_DATA_HOME/pwtui/vault.pwtui).", valueName: "path"))
    var vault: String?

    @Option(name: .long, help: ArgumentHelp("The settings file (default: $XDG_CONFIG_HOME/pwtui/config.toml).", valueName: "path"))
    var config: String?

    @Option(name: .customLong("master-password-fd"),
            help: ArgumentHelp("Read the master password's first line from this file descriptor (for scripts).", valueName: "n"))
    var masterPasswordFD: Int32?

    /// An empty `--vault` is a mistake (an unset shell variable), never a request for the default.
    func validate() throws {
        if vault?.isEmpty == true { throw ValidationError("--vault needs a path; it was given an empty one") }
        if config?.isEmpty == true { throw ValidationError("--config needs a path; it was given an empty one") }
    }

    /// `--config`, else `$XDG_CONFIG_HOME/pwtui/config.toml`.
    var configPath: String {
        if let config, !config.isEmpty { return config }
        let environment = ProcessInfo.processInfo.environment
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? ".") + "/.config"
        return configHome + "/pwtui/config.toml"
    }

    /// The settings; a file others can write, or one that does not parse, is an error.
    func settings() throws -> Settings {
        do {
            return try Settings.load(from: configPath)
        } catch {
            throw CommandFailure(.usage, error.description)
        }
    }

    /// The vault path: --vault, then PWTUI_VAULT, then the settings, then the XDG data directory.
    var vaultPath: String {
        let environment = ProcessInfo.processInfo.environment
        if let vault, !vault.isEmpty { return vault }
        if let fromEnvironment = environment["PWTUI_VAULT"], !fromEnvironment.isEmpty { return fromEnvironment }
        if let configured = (try? Settings.load(from: configPath))?.vault, !configured.isEmpty { return configured }
        return Self.defaultVaultPath
    }

    /// `$XDG_DATA_HOME/pwtui/vault.pwtui` (DESIGN §3).
    static var defaultVaultPath: String {
        let environment = ProcessInfo.processInfo.environment
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? ".") + "/.local/share"
        return dataHome + "/pwtui/vault.pwtui"
    }

    /// `$XDG_STATE_HOME/pwtui/usage`: local use history, never synced.
    var usagePath: String {
        let environment = ProcessInfo.processInfo.environment
        let stateHome = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? ".") + "/.local/state"
        return stateHome + "/pwtui/usage"
    }

    /// What ranking needs: the Public Suffix List (`PWTUI_PSL_FILE` names another list file),
    /// the vault's equivalent domains and the local use history. Without a list, says so on
    /// stderr and ranks without same-site matches.
    /// `suffixes`: a list already loaded (the agent keeps one instead of reading it per request).
    func rankingContext(for vault: Vault, suffixes: PublicSuffixList? = nil) -> RankingContext {
        RankingContext(suffixes: suffixes ?? publicSuffixList(), equivalents: vault.contents.equivalents,
                       usage: UsageHistory.load(from: usagePath))
    }

    /// Remembers that `credential` answered `request` (a tie-break in later rankings). Failing to
    /// record it must not fail the answer.
    func recordUse(of credential: Credential, for request: ServiceIdentifier, in context: RankingContext) {
        var usage = context.usage
        usage.recordUse(of: credential.id, for: request.host, at: Clock.system.now())
        try? usage.save(to: usagePath)
    }

    func publicSuffixList() -> PublicSuffixList {
        let file = ProcessInfo.processInfo.environment["PWTUI_PSL_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        if let list = LibPSL(file: file) { return list }
        StandardError.say("pwtui: the Public Suffix List could not be loaded\(file.map { " from \($0)" } ?? ""); "
            + "matching exact hosts and parent domains only")
        return NoPublicSuffixList()
    }

    /// Parses services a user gives for a credential: also refuses wildcards that would cover a
    /// whole public suffix (`*.co.uk`, `*.github.io`).
    func credentialServices(_ texts: [String]) throws -> [ServiceIdentifier] {
        let services = try texts.map { try ServiceIdentifier($0) }
        guard services.contains(where: \.isWildcard) else { return services }
        let suffixes = publicSuffixList()
        for service in services where service.isWildcard && suffixes.isPublicSuffix(service.host) {
            throw CommandFailure(.usage, "invalid service '\(service.text)': it would cover every site under the public suffix '\(service.host)'")
        }
        return services
    }

    /// Says, for a service being added, that a domain which is itself a public suffix
    /// (`github.io`, `s3.amazonaws.com`) will be offered only to that exact host: every name
    /// under it belongs to someone else, and ranking never matches them.
    func notePublicSuffixes(_ services: [ServiceIdentifier]) {
        let candidates = services.filter { $0.hostKind == .name && !$0.isSingleLabel && !$0.isWildcard }
        guard !candidates.isEmpty else { return }
        let suffixes = publicSuffixList()
        for service in candidates where suffixes.isPublicSuffix(service.host) {
            StandardError.say("Note: \(service.host) is a public suffix: this credential is offered to \(service.host) itself only, "
                + "never to sites under it (such as example.\(service.host)), which belong to others.")
        }
    }

    /// The master password, from the descriptor if one was given, else from the terminal.
    func masterPassword(prompt: String = "Master password: ") throws -> SecureBytes {
        if let masterPasswordFD {
            return try SecretReader.firstLine(of: masterPasswordFD, what: "--master-password-fd")
        }
        guard let terminal = TerminalPrompt() else {
            throw CommandFailure(.interactionRequired,
                                 "the vault is locked and there is no terminal to ask for the master password; pass --master-password-fd N")
        }
        return try terminal.readSecret(prompt: prompt)
    }

    /// Opens the vault with the master password, and rebuilds the identity store if it is
    /// missing or stale.
    func openVault() throws -> Vault {
        let path = vaultPath
        // A missing vault is reported before asking for a password nobody can use.
        try VaultStorage.requireVaultFile(path)
        // Before the prompt: which master password to type is what it is about.
        let interrupted = PasswordChangeMarker.pending(vaultPath: path)
        if let interrupted { StandardError.say(interrupted.notice) }
        let password = try masterPassword()
        let vault = try Vault.open(at: path, password: password)
        interrupted?.marker.remove()
        syncIdentities(with: vault, previousGeneration: nil)
        return vault
    }

    /// Saves with the save protocol, then updates the identity store incrementally.
    func save(_ vault: Vault) throws {
        let previous = vault.header.generation
        do {
            try vault.save()
        } catch let error as VaultError where error.isSavedNotDurable {
            // Saved, durability unconfirmed: the change is in force, so the store follows it.
            syncIdentities(with: vault, previousGeneration: previous)
            throw error
        }
        syncIdentities(with: vault, previousGeneration: previous)
    }

    /// `$XDG_STATE_HOME/pwtui/identities/<vault>`: one store per vault file. A single store for
    /// every vault was overwritten by `list --vault other.pwtui`, after which `suggest` for the
    /// usual vault found it stale (75) until the next unlock.
    func identityStorePath() throws -> String {
        Self.identityStoreDirectory(stateDirectory: stateDirectory) + "/" + (try Self.identityStoreName(forVault: vaultPath))
    }

    static func identityStoreDirectory(stateDirectory: String) -> String { stateDirectory + "/identities" }

    /// The store's file name for the vault at `path`: BLAKE2b of the vault's canonical path
    /// (absolute, symlinks and `..` resolved, so every way of naming the file finds the same
    /// store), the first 16 bytes in hex. Not the vault id: a copy of a vault (a backup, the
    /// `.bak`) has the same id, and the two would overwrite each other's store.
    static func identityStoreName(forVault path: String) throws -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let canonical = URL(fileURLWithPath: absolute).standardizedFileURL.resolvingSymlinksInPath().path
        return Hex.string(try BLAKE2b.hash(Array(canonical.utf8)).prefix(16))
    }

    /// `$XDG_STATE_HOME/pwtui`: local state, never synced.
    var stateDirectory: String {
        (usagePath as NSString).deletingLastPathComponent
    }

    /// The identity store, when it is on and mirrors the vault file as it is now (its header is
    /// read without the password: it is not secret). Otherwise 75 with what to do about it.
    /// `filter`: build only the identities it lets through (see `IdentityStore.load`).
    func currentIdentityStore(filter: ((EquivalentDomains) -> HostFilter)? = nil) throws -> IdentityStore {
        let header = try VaultStorage.loadHeader(vaultPath)
        guard try settings().identityStore else {
            throw CommandFailure(.interactionRequired, "the identity store is off (identity_store = false in \(configPath))")
        }
        let loaded: IdentityStore?
        do {
            loaded = try IdentityStore.read(from: try identityStorePath(), filter: filter)
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            // A cache, never the user's input: damage is reported as such and repaired by an unlock.
            throw CommandFailure(.interactionRequired, "\(error); it is ignored, and any command that unlocks the vault (pwtui unlock, pwtui get) rebuilds it")
        }
        guard let store = loaded, store.isCurrent(for: header) else {
            throw CommandFailure(.interactionRequired,
                                 "the identity store is missing or older than the vault; any command that unlocks it (pwtui unlock, pwtui get) rebuilds it")
        }
        return store
    }

    /// Ranking without the vault (identities from the store or the agent): their equivalent
    /// domains, the local use history.
    func rankingContext(equivalents: EquivalentDomains) -> RankingContext {
        RankingContext(suffixes: publicSuffixList(), equivalents: equivalents, usage: UsageHistory.load(from: usagePath))
    }

    /// Keeps the identity store in step with `vault` (or removes it when the setting is off), when
    /// `vault` is the configured one.
    /// `previousGeneration`: the generation before a save just made, for an incremental update;
    /// nil after opening, when only a missing or stale store is rebuilt. A store that cannot be
    /// written is reported, never fatal: it is a cache of what the vault holds.
    func syncIdentities(with vault: Vault, previousGeneration: UInt64?) {
        // The store mirrors the configured vault only: never `demo`'s throwaway one.
        guard vault.path == vaultPath else { return }
        let identityStorePath: String
        do {
            identityStorePath = try self.identityStorePath()
        } catch {
            StandardError.say("pwtui: the identity store could not be located (\(error)); suggestions may be out of date")
            return
        }
        let directory = Self.identityStoreDirectory(stateDirectory: stateDirectory)
        guard (try? settings())?.identityStore ?? true else {
            IdentityStore.removeAll(in: directory)
            return
        }
        // Before one store per vault, a single file stood where their directory goes now.
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), !isDirectory.boolValue {
            IdentityStore.remove(at: directory)
        }
        var store = IdentityStore.load(from: identityStorePath)
        if let previousGeneration, var existing = store {
            existing.update(from: vault, previousGeneration: previousGeneration)
            store = existing
        } else if let existing = store, existing.isCurrent(for: vault.header) {
            return
        } else {
            store = IdentityStore(vault: vault)
        }
        do {
            try store?.save(to: identityStorePath)
        } catch {
            StandardError.say("pwtui: the identity store could not be written (\(error)); suggestions may be out of date")
        }
    }
}
