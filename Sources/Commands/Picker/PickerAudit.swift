import FoundationEssentials
import Platform
import VaultAgent
import VaultModel

/// The picker's audit of a vault it opened: the same `VaultAudit` as `pwtui audit`, against the
/// settings' `pwned_passwords` when there is one, taken once per opened vault and kept for the
/// list's marks and every detail screen. A breach file that cannot be read costs the breached
/// marks only, never the picker: the audit is then taken without it. Before unlocking, an unlocked
/// agent is asked for its audit instead (after the list's first frame: `CredentialListScreen`).
final class PickerAudit {
    private let context: CommandContext
    private var reports: [ObjectIdentifier: AuditReport] = [:]

    init(_ context: CommandContext) {
        self.context = context
    }

    /// The kinds found by an agent that holds `path` unlocked, for the list shown before
    /// unlocking; none when no agent answers (locked, absent, another vault, an older version).
    /// The report is kept in `keeping`, for the detail screens opened without unlocking.
    static func kinds(
        from auditor: VaultAccess.AgentAuditor, breachSource: String?, keeping kept: AgentReport
    ) -> [UUID: Set<AuditFinding.Kind>] {
        let report = auditor(AuditOptions(breachSource: breachSource)) ?? auditor(AuditOptions())
        kept.report = report
        return report?.kindsByCredential ?? [:]
    }

    /// The agent's report once it came (on the list's thread for audits), for the detail screens
    /// opened before unlocking: a screen opened before it came shows no findings.
    final class AgentReport: @unchecked Sendable {
        // @unchecked: `kept` only under `lock`.
        private let lock = Lock()
        private var kept: AuditReport?

        var report: AuditReport? {
            get { lock.withLock { kept } }
            set { lock.withLock { kept = newValue } }
        }
    }

    /// The settings' breach file, absolute; nil when there is none (or the settings are unreadable).
    var breachSource: String? {
        (try? context.settings().pwnedPasswords).flatMap { $0 }.map(FileSystem.absolute)
    }

    func report(for vault: Vault) -> AuditReport? {
        if let report = reports[ObjectIdentifier(vault)] { return report }
        let now = Clock.system.now()
        let source = breachSource
        guard
            let report = (try? VaultAudit.report(of: vault, options: AuditOptions(breachSource: source), now: now))
                ?? (try? VaultAudit.report(of: vault, options: AuditOptions(), now: now))
        else { return nil }
        reports[ObjectIdentifier(vault)] = report
        return report
    }
}
