import Foundation
import PwtuiTestSupport
import ServiceMatching
import Testing
@testable import VaultModel

/// `Golden/golden-v1.pwtui` was written by pwtui 0.1 (format 1.0) and is never regenerated:
/// every later pwtui must keep opening it. Made with the command line:
///
///     pwtui init --kdf interactive                          (password "golden master")
///     printf 'hunter2\n' | pwtui add github.com https://github.com/login --username alice \
///         --title GitHub --rank 2 --notes 'Recovery codes: in the safe'
///     printf 'pässwörd-日本語\n' | pwtui add 'webcredentials:*.example.com:8443' \
///         --username bob@example.com --title 'Exämple 日本'
///     printf 'gone\n' | pwtui add old.example.org --username carol
///     printf 'hunter3\n' | pwtui edit 78bf0c9d --password
///     pwtui rm 37c93d8d --yes
@Suite struct GoldenVaultTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden/golden-v1.pwtui").path

    @Test func goldenVaultKeepsOpening() throws {
        let vault = try Vault.open(at: Self.path, password: try secure("golden master"))
        #expect(vault.header.majorVersion == 1)
        #expect(vault.header.generation == 6)  // init, three adds, edit, rm
        #expect(vault.contents.credentials.count == 2)

        let github = try vault.credential(id: "78bf0c9d")
        #expect(github.title == "GitHub")
        #expect(github.username == "alice")
        #expect(github.rank == 2)
        #expect(github.notes == "Recovery codes: in the safe")
        #expect(github.services.map(\.text) == ["github.com", "https://github.com/login"])
        #expect(secretText(vault, github.secret) == "hunter3")
        #expect(github.history.map { secretText(vault, $0.secret) } == ["hunter2"])

        let example = try vault.credential(id: "82f9fed5-daec-4d07-b06a-81692872645a")
        #expect(example.title == "Exämple 日本")
        #expect(example.username == "bob@example.com")
        #expect(example.services.first?.isWildcard == true)
        #expect(secretText(vault, example.secret) == "pässwörd-日本語")

        #expect(
            vault.contents.tombstones.map { $0.id.uuidString.lowercased() } == ["37c93d8d-c5bc-48ad-b657-5b975c298170"])
    }

    /// A vault an older pwtui wrote is brought to this version when it is first saved here, and
    /// still opens afterwards. The format version is part of what the data key is bound to: a
    /// save that stamped the new version without wrapping the key again made it unopenable.
    @Test func anOlderVaultSavedHereStillOpensAndIsUpgraded() throws {
        let temporary = TemporaryDirectory()
        let copy = try temporary.freshPath("golden.pwtui")
        try FileManager.default.copyItem(atPath: Self.path, toPath: copy)
        let bytes = try readFile(copy)
        let old = try bytes.withUnsafeBytes { try VaultHeader.parse($0, path: copy) }
        #expect(old.minorVersion < VaultHeader.currentMinorVersion, "the golden file is from an older format")
        let vault = try Vault.open(at: copy, password: try secure("golden master"))
        try vault.add(services: [ServiceIdentifier("new.example")], username: "dave", secret: try secure("new secret"))
        try vault.save()
        let reopened = try Vault.open(at: copy, password: try secure("golden master"))
        #expect(reopened.header.minorVersion == VaultHeader.currentMinorVersion)
        #expect(reopened.contents.credentials.count == 3)
        #expect(secretText(reopened, try reopened.credential(id: "78bf0c9d").secret) == "hunter3")
        // And saved again, from a vault already at this version.
        try reopened.update(try reopened.credential(id: "78bf0c9d").id) { $0.notes = "again" }
        try reopened.save()
        #expect(
            try Vault.open(at: copy, password: try secure("golden master")).credential(id: "78bf0c9d").notes == "again")
    }

    @Test func goldenVaultRefusesAnotherPassword() throws {
        #expect(throws: VaultError.wrongPassword(path: Self.path)) {
            _ = try Vault.open(at: Self.path, password: try secure("golden Master"))
        }
    }
}
