import Foundation
import Platform
import PwtuiTestSupport
import ServiceMatching
import Testing
import VaultCrypto
@testable import VaultModel

/// Services of other schemes in the file (format 1.5, issue 38): under their own tag, which a
/// 1.4 reader skips (and then refuses to save), so an older pwtui opens the vault instead of
/// calling it damaged for a service it cannot parse; web services keep the tag they always had.
@Suite("Services of other schemes in the file")
struct OtherSchemeServiceTests {
    let temporary = TemporaryDirectory()

    /// Where `tag`, then `text`'s length and bytes, appear in `payload`.
    static func contains(_ payload: [UInt8], tag: UInt8, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var length = UInt32(bytes.count).littleEndian
        let field = [tag] + withUnsafeBytes(of: &length) { Array($0) } + bytes
        return payload.firstRange(of: field) != nil
    }

    @Test("ssh:// and sftp:// are written under tag 19 and read back as written; https stays under tag 9; format 1.5")
    func ownTag() throws {
        let environment = VaultEnvironment(derivation: MemoizingDerivation())
        let vault = try createVault(in: temporary, environment: environment)
        let services = ["ssh://build.example", "SFTP://files.example:2222/home", "https://build.example"]
        let added = try vault.add(
            services: try services.map { try ServiceIdentifier($0) }, username: "deploy", secret: try secure("pw"))
        let payload = try PayloadCodec.encode(vault.contents).withUnsafeBytes { Array($0) }
        #expect(Self.contains(payload, tag: 19, "ssh://build.example"))
        #expect(Self.contains(payload, tag: 19, "SFTP://files.example:2222/home"))
        #expect(Self.contains(payload, tag: 9, "https://build.example"))
        #expect(!Self.contains(payload, tag: 9, "ssh://build.example"))
        try vault.save()
        #expect(vault.header.minorVersion >= 5)
        let reopened = try Vault.open(at: vault.path, password: try secure(testPassword), environment: environment)
        #expect(reopened.contents.credential(withID: added.id)?.services.map(\.text) == services)
    }
}
