import FoundationEssentials
import Interchange
import Platform
import ServiceMatching
import UnicodeText
import VaultModel

/// `pwtui import`: brings an export from another manager into the vault with one save.
///
/// The file is read and checked before the master password is asked (a wrong file costs no
/// typing), every entry is decided (`ImportPlan`) before anything changes, and nothing changes
/// at all when an entry cannot be imported, unless `skipInvalid`. The vault is opened here, not
/// through the agent: one save of thousands of credentials is the vault's own job, and an agent
/// holding the vault reads the new file on its next request. The export stays where it is, and
/// the user is reminded that it is plaintext.
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

    public func run(in context: CommandContext) throws {
        // The export read into protected memory and what it became (the batch and the plan) are
        // let go before the save, which holds the vault's payload once more (the file image,
        // sealed in place): with them, a 100 MB CSV's import peaked at over 4x the file.
        guard let applied = try planAndApply(in: context) else { return }
        MemoryTuning.returnFreedMemory()
        try context.save(applied.vault)
        recordUse(applied.used, in: applied.vault, context)
        try context.streams.write(applied.report, afterSaving: "the import")
        remindOfPlaintext(applied.format, in: context)
    }

    /// Reads the export, decides every entry and applies the plan to the opened vault; nil when
    /// nothing is left to save (a dry run, nothing new), after saying so.
    private func planAndApply(in context: CommandContext) throws -> (
        vault: Vault, used: [(id: UUID, lastUsed: Timestamp)], report: String, format: ImportFormat
    )? {
        let progress = ProgressBar(label: "Decrypting")
        let batch = try ImportReader.read(path, format: format, decrypter: decrypter, progress: progress.update)
        let vault = try context.openVault()
        // Long only for big files (100,000 entries take seconds): drawn from 5,000 on.
        let planning = ProgressBar(label: "Reading entries", minimumSteps: 5_000)
        let plan = ImportPlan(
            batch, existing: vault.contents.credentials, existingSecrets: vault.contents.secrets,
            policy: policy, now: Clock.system.now(), suffixes: context.suffixes, progress: planning.update)
        for warning in plan.warnings { context.streams.say("warning: " + PrintableText.escaped(warning)) }
        let invalid = plan.steps.filter { if case .invalid = $0.action { return true } else { return false } }
        if dryRun {
            try context.streams.write(report(plan, everything: true))
        }
        // A dry run ends as the import would: a script checking it learns the same.
        guard invalid.isEmpty || skipInvalid else {
            let listed = invalid.prefix(20).map {
                "  " + PrintableText.escaped("\($0.origin): \(Self.reason($0.action))")
            }.joined(separator: "\n")
            let more =
                invalid.count > 20 ? "\n  … and \(invalid.count - 20) more (pwtui import --dry-run lists them all)" : ""
            let outcome = dryRun ? "so the import would change nothing" : "so nothing was"
            throw CommandFailure(
                .corrupt,
                "\(path): \(invalid.count) of \(plan.steps.count) entries cannot be imported, \(outcome):\n"
                    + listed + more + "\nFix them in the export, or add --skip-invalid to import the rest.")
        }
        if dryRun { return nil }
        guard plan.addedCount + plan.updatedCount > 0 else {
            try context.streams.write(report(plan, everything: false))
            remindOfPlaintext(batch.format, in: context)
            return nil
        }
        let used = try plan.apply(to: vault)
        return (vault, used, report(plan, everything: false), batch.format)
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
    private func recordUse(_ used: [(id: UUID, lastUsed: Timestamp)], in vault: Vault, _ context: CommandContext) {
        guard !used.isEmpty else { return }
        var usage = context.usageHistory.read()
        for (id, time) in used {
            guard let credential = vault.contents.credential(withID: id), let service = credential.services.first else {
                continue
            }
            usage.recordUse(of: id, for: service.host, at: time)
        }
        try? context.usageHistory.write(usage)
    }

    private func remindOfPlaintext(_ format: ImportFormat, in context: CommandContext) {
        guard format != .pass else { return }
        context.streams.say(
            "\(path) holds every password in plaintext: delete it when you are done (shred -u \(ShellWord.quoted(path)))."
        )
    }
}
