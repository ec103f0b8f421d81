import FoundationEssentials
import Platform
import ServiceMatching
import TUI
import VaultCrypto
import VaultModel

/// The detail screen's view of one credential in an open vault (`CredentialDetails`): the picker
/// flow is generic over what unlocking opens, so this is how the screen reaches the vault's
/// arena without `TUI` knowing a `Vault`. Secrets are lent from the arena; a restore is the same
/// `CredentialChange` as `pwtui edit --restore`, saved with the save protocol (merged over a save
/// made meanwhile by another process).
final class VaultCredentialDetails: CredentialDetails {
    let vault: Vault
    let id: UUID
    let requests: [ServiceIdentifier]
    let ranking: RankingContext
    let context: CommandContext
    /// The credential as first shown, should it vanish from the vault (a merge that removed it).
    private let shown: Credential
    /// What the picker's audit found about its password (`PickerAudit`).
    let findings: [AuditFinding]

    init?(
        _ id: UUID, in vault: Vault, requests: [ServiceIdentifier], context: CommandContext,
        findings: [AuditFinding] = []
    ) {
        guard let credential = vault.contents.credential(withID: id) else { return nil }
        self.vault = vault
        self.id = id
        self.requests = requests
        self.context = context
        ranking = context.rankingContext(for: vault)
        shown = credential
        self.findings = findings
    }

    var credential: Credential { vault.contents.credential(withID: id) ?? shown }

    func match(of service: ServiceIdentifier) -> MatchKind? {
        requests.compactMap { ServiceMatch.tier(stored: service, request: $0, context: ranking) }.min {
            $0.order < $1.order
        }
    }

    var lastUsed: Timestamp? { ranking.usage.lastUsed(id) }

    func withSecret<Result>(_ reference: SecretReference, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows
        -> Result
    {
        try vault.withSecret(reference, body)
    }

    func withOneTimeCode<Result>(_ body: (UnsafeRawBufferPointer, Int) throws -> Result) throws -> Result? {
        let credential = credential
        guard credential.totp != nil else { return nil }
        let timed = try vault.oneTimeCode(of: credential)
        return try timed.code.withUnsafeBytes { try body($0, timed.secondsLeft) }
    }

    func restore(previous number: Int) throws {
        _ = try CredentialChange.edit(id: id.uuidString, .init(restore: number))
            .apply(to: vault, secret: try SecureBytes(zeros: 0), suffixes: context.suffixes)
        do {
            try context.save(vault)
        } catch let error as VaultError where error.isSavedNotDurable {
            throw error
        } catch {
            // Not saved: the screen must not show a restore that did not happen.
            try? vault.revert()
            throw error
        }
    }
}
