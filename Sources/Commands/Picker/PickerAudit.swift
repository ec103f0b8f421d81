import FoundationEssentials
import Platform
import VaultModel

/// The picker's audit of a vault it opened: the same `VaultAudit` as `pwtui audit`, against the
/// settings' `pwned_passwords` when there is one, taken once per opened vault and kept for the
/// list's marks and every detail screen. A breach file that cannot be read costs the breached
/// marks only, never the picker: the audit is then taken without it.
final class PickerAudit {
    private let context: CommandContext
    private var reports: [ObjectIdentifier: AuditReport] = [:]

    init(_ context: CommandContext) {
        self.context = context
    }

    func report(for vault: Vault) -> AuditReport? {
        if let report = reports[ObjectIdentifier(vault)] { return report }
        let now = Clock.system.now()
        let source = (try? context.settings().pwnedPasswords).flatMap { $0 }.map(FileSystem.absolute)
        guard
            let report = (try? VaultAudit.report(of: vault, options: AuditOptions(breachSource: source), now: now))
                ?? (try? VaultAudit.report(of: vault, options: AuditOptions(), now: now))
        else { return nil }
        reports[ObjectIdentifier(vault)] = report
        return report
    }
}
