import FoundationEssentials
import Interchange
import Platform
import ServiceMatching
import UnicodeText
import VaultAgent
import VaultModel

/// `pwtui import`: brings an export from another manager into the vault with one save.
///
/// The file is read and checked before the master password is asked (a wrong file costs no
/// typing), every entry is decided (`ImportPlan`) before anything changes, and nothing changes
/// at all when an entry cannot be imported, unless `skipInvalid`. An unlocked agent that holds
/// the vault does the import itself (`AgentRequest.importFile`: it reads the file outside its
/// turns, then plans, applies and saves on a copy, as it makes every change), except from a pass
/// store, whose entries gpg decrypts where the user can answer its pinentry. The same `apply` runs on either
/// side. The export stays where it is, and the user is reminded that it is plaintext.
public struct ImportCredentials {
    public var path: String
    public var format: ImportFormat?
    public var dryRun: Bool
    public var policy: ImportPlan.ConflictPolicy
    public var skipInvalid: Bool
    /// Decrypts pass entries (gpg unless a test says otherwise).
    public var decrypter: PassStore.Decrypter?

    public init(
        path: String, format: ImportFormat? = nil, dryRun: Bool = false, policy: ImportPlan.ConflictPolicy = .skip,
        skipInvalid: Bool = false, decrypter: PassStore.Decrypter? = nil
    ) {
        self.path = path
        self.format = format
        self.dryRun = dryRun
        self.policy = policy
        self.skipInvalid = skipInvalid
        self.decrypter = decrypter
    }

    /// The import an agent was asked for (`ImportOrder`), its options read back; a usage error
    /// when they are not this version's.
    init(_ order: ImportOrder) throws {
        let format = try order.format.map { name in
            guard let format = ImportFormat(rawValue: name) else {
                throw CommandFailure(.usage, "unknown import format '\(name)'")
            }
            return format
        }
        guard let policy = ImportPlan.ConflictPolicy(rawValue: order.onConflict) else {
            throw CommandFailure(.usage, "unknown conflict policy '\(order.onConflict)'")
        }
        self.init(
            path: order.path, format: format, dryRun: order.dryRun, policy: policy, skipInvalid: order.skipInvalid)
    }

    var order: ImportOrder {
        ImportOrder(
            path: FileSystem.absolute(path), format: format?.rawValue, dryRun: dryRun, onConflict: policy.rawValue,
            skipInvalid: skipInvalid)
    }

    /// What `apply` did, for the command to say and the caller to save.
    struct Applied {
        var outcome: ImportOutcome
        /// When the export says the credentials were last used (for the use history).
        var used: [(id: UUID, lastUsed: Timestamp)]
        /// Whether there is anything to save.
        var changes: Bool
        var format: ImportFormat
    }

    public func run(in context: CommandContext) throws {
        let isPassStore = format == .pass || (try? FileSystem.status(path))?.kind == .directory
        if !isPassStore,
            let answer = try VaultAccess.ask(.importFile(vault: context.vaultPath, order: order), in: context)
        {
            guard case .imported(let outcome) = answer.body else { throw AgentError.unexpected(answer.body) }
            try say(outcome, remind: true, in: context)
            return
        }
        // The export read into protected memory and what it became (the batch and the plan) are
        // let go before the save, which holds the vault's payload once more (the file image,
        // sealed in place): with them, a 100 MB CSV's import peaked at over 4x the file.
        let (vault, applied) = try {
            let batch = try read(progress: ProgressBar(label: "Decrypting").update)
            let vault = try context.openVault()
            // Long only for big files (100,000 entries take seconds): drawn from 5,000 on.
            let planning = ProgressBar(label: "Reading entries", minimumSteps: 5_000)
            return (vault, try apply(batch, to: vault, suffixes: context.suffixes, progress: planning.update))
        }()
        var outcome = applied.outcome
        if applied.changes {
            MemoryTuning.returnFreedMemory()
            try context.save(vault)
            outcome.saved = true
            Self.recordUse(applied.used, in: vault, context)
        }
        try say(outcome, remind: applied.format != .pass, in: context)
    }

    /// The agent's side of `run`: the file read outside its turns, then `apply` to the copy that
    /// `saving` saves (one save). A dry run saves nothing, and reads in a read turn instead.
    static func runInAgent(
        _ order: ImportOrder, limit: AgentWorkLimit, context: CommandContext,
        reading: ((Vault) throws -> ImportOutcome) throws -> ImportOutcome,
        saving: ((Vault) throws -> ImportOutcome) throws -> ImportOutcome?
    ) throws -> ImportOutcome {
        let importer = try ImportCredentials(order)
        let batch = try importer.read(progress: nil)
        try limit.check()
        if importer.dryRun {
            return try reading { vault in try importer.apply(batch, to: vault, suffixes: context.suffixes).outcome }
        }
        let outcome = try saving { vault in
            let applied = try importer.apply(batch, to: vault, suffixes: context.suffixes)
            if applied.changes { recordUse(applied.used, in: vault, context) }
            var outcome = applied.outcome
            outcome.saved = applied.changes
            return outcome
        }
        guard let outcome else { throw CommandFailure(.ioError, "the import's outcome was lost") }
        return outcome
    }

    /// The export, read and checked.
    func read(progress: ((Int, Int) -> Void)?) throws -> ImportBatch {
        try ImportReader.read(path, format: format, decrypter: decrypter, progress: progress)
    }

    /// Decides every entry of `batch` for `vault` and applies the plan (unless a dry run, or
    /// entries cannot be imported): the same here and in the agent. Nothing is saved here.
    func apply(
        _ batch: ImportBatch, to vault: Vault, suffixes: @autoclosure () -> PublicSuffixList,
        progress: ((Int, Int) -> Void)? = nil
    ) throws -> Applied {
        let plan = ImportPlan(
            batch, existing: vault.contents.credentials, existingSecrets: vault.contents.secrets,
            policy: policy, now: Clock.system.now(), suffixes: suffixes(), progress: progress)
        let warnings = plan.warnings.map { "warning: " + PrintableText.escaped($0) }
        let invalid = plan.steps.filter { if case .invalid = $0.action { return true } else { return false } }
        var applied = Applied(
            outcome: ImportOutcome(warnings: warnings, report: "", saved: false, refusal: nil), used: [],
            changes: false, format: batch.format)
        if dryRun { applied.outcome.report = report(plan, everything: true) }
        // A dry run ends as the import would: a script checking it learns the same.
        guard invalid.isEmpty || skipInvalid else {
            let listed = invalid.prefix(20).map {
                "  " + PrintableText.escaped("\($0.origin): \(Self.reason($0.action))")
            }.joined(separator: "\n")
            let more =
                invalid.count > 20 ? "\n  … and \(invalid.count - 20) more (pwtui import --dry-run lists them all)" : ""
            let consequence = dryRun ? "so the import would change nothing" : "so nothing was"
            applied.outcome.refusal =
                "\(path): \(invalid.count) of \(plan.steps.count) entries cannot be imported, \(consequence):\n"
                + listed + more + "\nFix them in the export, or add --skip-invalid to import the rest."
            return applied
        }
        if dryRun { return applied }
        if plan.addedCount + plan.updatedCount > 0 {
            applied.used = try plan.apply(to: vault)
            applied.changes = true
        }
        applied.outcome.report = report(plan, everything: false)
        return applied
    }

    /// What the import did, said as the command's output: warnings, the report (after a save:
    /// a failure to write it is "saved, but"), the refusal, the reminder.
    private func say(_ outcome: ImportOutcome, remind: Bool, in context: CommandContext) throws {
        for warning in outcome.warnings { context.streams.say(warning) }
        if outcome.saved {
            try context.streams.write(outcome.report, afterSaving: "the import")
        } else if !outcome.report.isEmpty {
            try context.streams.write(outcome.report)
        }
        if let refusal = outcome.refusal { throw CommandFailure(.corrupt, refusal) }
        if !dryRun, remind { remindOfPlaintext(in: context) }
    }

    /// What each entry became: every one with `everything` (a dry run), otherwise the counts and
    /// the entries that were not simply added.
    func report(_ plan: ImportPlan, everything: Bool) -> String {
        var lines: [String] = []
        for step in plan.steps {
            if case .add = step.action, !everything { continue }
            let word = Self.verb(step.action, dryRun: dryRun)
            let verb = word + String(repeating: " ", count: max(0, 9 - word.count))
            let reason = Self.reason(step.action)
            // Names from the export (a pass store's file names, titles, a reader's reason quoting
            // the input) are one line each, escaped: a newline in a file name must not forge one.
            lines.append(
                PrintableText.escaped(
                    "\(verb) \(step.origin)\(step.summary.isEmpty ? "" : ": \(step.summary)")"
                        + (reason.isEmpty ? "" : " (\(reason))")))
        }
        let skipped = plan.steps.count - plan.addedCount - plan.updatedCount - plan.invalidCount
        let counts =
            (dryRun
            ? [
                ("to add", plan.addedCount), ("to update", plan.updatedCount), ("to skip", skipped),
                ("not importable", plan.invalidCount),
            ]
            : [
                ("added", plan.addedCount), ("updated", plan.updatedCount), ("skipped", skipped),
                ("not importable", plan.invalidCount),
            ])
            .filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }.joined(separator: ", ")
        let head = dryRun ? "Dry run, nothing changed: " : "Imported from "
        lines.append(
            PrintableText.escaped(
                "\(head)\(plan.batch.format.publisher) \(path): \(counts.isEmpty ? "nothing to do" : counts)."))
        return lines.joined(separator: "\n") + "\n"
    }

    private static func verb(_ action: ImportPlan.Action, dryRun: Bool) -> String {
        switch action {
        case .add, .addBesides: return dryRun ? "add" : "added"
        case .update, .updatePending, .olderPending, .enrich, .enrichPending: return dryRun ? "update" : "updated"
        case .duplicate, .conflict, .notLogin, .notCredential: return dryRun ? "skip" : "skipped"
        case .invalid: return "invalid"
        }
    }

    private static func reason(_ action: ImportPlan.Action) -> String {
        switch action {
        case .add: return ""
        case .update(let id):
            return
                "a new password for credential \(id.uuidString.lowercased().prefix(8)); the old one is kept in its history"
        case .updatePending(let origin):
            return "a newer password for the same account at \(origin); the older one, if any, is kept in the history"
        case .olderPending(let origin): return "an older password of the same account at \(origin): kept in its history"
        case .enrich(let id, let gains):
            return "same password as credential \(id.uuidString.lowercased().prefix(8)); adds \(gains)"
        case .enrichPending(let origin, let gains): return "same account and password as \(origin); adds \(gains)"
        case .notCredential(let reason): return reason
        case .duplicate(let other): return "a duplicate of \(other): same service, username and password"
        case .conflict(let other):
            return "same service and username as \(other), another password; --on-conflict update or keep-both"
        case .addBesides(let other): return "beside \(other), which has another password"
        case .notLogin(let kind): return "a \(kind), not a login"
        case .invalid(let reason): return reason
        }
    }

    /// When the export says the credentials were last used: into the use history, where ranking
    /// reads it.
    private static func recordUse(
        _ used: [(id: UUID, lastUsed: Timestamp)], in vault: Vault, _ context: CommandContext
    ) {
        let uses = used.compactMap { id, time -> (UUID, String, Timestamp)? in
            guard let service = vault.contents.credential(withID: id)?.services.first else { return nil }
            return (id, service.host, time)
        }
        guard !uses.isEmpty else { return }
        try? context.usageHistory.update { usage in
            for (id, host, time) in uses { usage.recordUse(of: id, for: host, at: time) }
        }
    }

    /// A pass store is encrypted; every other export holds its passwords in plaintext.
    private func remindOfPlaintext(in context: CommandContext) {
        context.streams.say(
            "\(path) holds every password in plaintext: delete it when you are done (shred -u \(ShellWord.quoted(path)))."
        )
    }
}
