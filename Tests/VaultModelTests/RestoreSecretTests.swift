import Foundation
import PwtuiTestSupport
import ServiceMatching
import Testing
import VaultCrypto
@testable import VaultModel

/// `edit --restore N` and the detail screen's restore: a previous password becomes current, the
/// current one is kept in the history, and a save by another process meanwhile loses nothing.
@Suite struct RestoreSecretTests {
    let temporary = TemporaryDirectory()
    let environment = VaultEnvironment(clock: steppingClock(), derivation: MemoizingDerivation())

    /// A saved vault with one credential whose password went p1 → p2 → p3.
    func vaultWithHistory() throws -> (Vault, UUID) {
        let vault = try createVault(in: temporary, environment: environment)
        let credential = try vault.add(
            services: [ServiceIdentifier("s.example")], username: "u", secret: try secure("p1"))
        try vault.replaceSecret(of: credential.id, with: try secure("p2"))
        try vault.replaceSecret(of: credential.id, with: try secure("p3"))
        try vault.save()
        return (vault, credential.id)
    }

    func passwords(_ vault: Vault, _ id: UUID) throws -> (current: String, previous: [String]) {
        let credential = try #require(vault.contents.credential(withID: id))
        return (secretText(vault, credential.secret), credential.previousSecrets.map { secretText(vault, $0.secret) })
    }

    @Test func previousSecretsAreListedNewestFirst() throws {
        let (vault, id) = try vaultWithHistory()
        #expect(try passwords(vault, id).previous == ["p2", "p1"])
    }

    @Test func restoringMakesTheChosenOneCurrentAndKeepsTheCurrentOneInHistory() throws {
        let (vault, id) = try vaultWithHistory()
        try vault.restoreSecret(of: id, previous: 2)
        try vault.save()
        let reopened = try Vault.open(at: vault.path, password: try secure(testPassword), environment: environment)
        let (current, previous) = try passwords(reopened, id)
        #expect(current == "p1")
        #expect(previous == ["p3", "p2", "p1"], "every password the credential had is still there")
    }

    @Test func aRestoreThroughTheChangeIsTheSame() throws {
        let (vault, id) = try vaultWithHistory()
        _ = try CredentialChange.edit(id: id.uuidString, .init(restore: 1))
            .apply(to: vault, secret: try SecureBytes(zeros: 0), suffixes: NoPublicSuffixList())
        #expect(try passwords(vault, id).current == "p2")
        #expect(try passwords(vault, id).previous.first == "p3")
    }

    @Test(arguments: [0, 3, -1]) func aNumberTheHistoryDoesNotHaveIsRefusedAndChangesNothing(number: Int) throws {
        let (vault, id) = try vaultWithHistory()
        #expect(throws: VaultError.self) {
            try CredentialChange.edit(id: id.uuidString, .init(restore: number))
                .apply(to: vault, secret: try SecureBytes(zeros: 0), suffixes: NoPublicSuffixList())
        }
        #expect(try passwords(vault, id).current == "p3")
        #expect(try passwords(vault, id).previous == ["p2", "p1"])
    }

    @Test func aRestoreSurvivesAPasswordChangeSavedMeanwhileByAnotherProcess() throws {
        let (mine, id) = try vaultWithHistory()
        let theirs = try Vault.open(at: mine.path, password: try secure(testPassword), environment: environment)
        try mine.restoreSecret(of: id, previous: 2)  // p1 again, not saved yet
        try theirs.replaceSecret(of: id, with: try secure("p4"))
        try theirs.save()
        try mine.save()  // replayed onto their version
        let merged = try Vault.open(at: mine.path, password: try secure(testPassword), environment: environment)
        let (current, previous) = try passwords(merged, id)
        #expect(current == "p1", "the restore, saved last, wins")
        #expect(Set(previous) == ["p1", "p2", "p3", "p4"], "their new password is in the history, nothing lost")
    }
}
