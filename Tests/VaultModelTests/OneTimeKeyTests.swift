import Foundation
import Platform
import PwtuiTestSupport
import ServiceMatching
import Testing
import VaultCrypto
@testable import VaultModel

/// Authenticator keys: read from what sites give (otpauth URIs, base32), kept in the vault like
/// passwords (format 1.2), replayed onto another process's save, and turned into codes by the
/// vault's clock.
@Suite("Authenticator keys")
struct OneTimeKeyTests {
    let temporary = TemporaryDirectory()

    static func parsed(_ text: String) throws -> (OneTimeParameters, [UInt8]) {
        try Array(text.utf8).withUnsafeBytes { bytes in
            let key = try OTPAuth.parse(bytes)
            return (key.parameters, key.key.withUnsafeBytes { Array($0) })
        }
    }

    static let rfcSeed = Array("12345678901234567890".utf8)  // GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ in base32

    @Test(
        "URIs and bare secrets as sites and apps write them",
        arguments: [
            (
                "otpauth://totp/GitHub:alice?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=GitHub",
                OneTimeParameters.standard
            ),
            (
                "OTPAUTH://TOTP/x?Secret=gezdgnbvgy3tqojqgezdgnbvgy3tqojq&ALGORITHM=sha256&digits=8&period=60",
                OneTimeParameters(algorithm: .sha256, digits: 8, period: 60)
            ),
            (
                "otpauth://totp/?algorithm=SHA512&secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ%3D%3D%3D&digits=7",
                OneTimeParameters(algorithm: .sha512, digits: 7, period: 30)
            ),
            ("  gezd gnbv gy3t qojq gezd gnbv gy3t qojq \n", OneTimeParameters.standard),
            ("GEZD-GNBV-GY3T-QOJQ-GEZD-GNBV-GY3T-QOJQ", OneTimeParameters.standard),
        ])
    func reads(text: String, parameters: OneTimeParameters) throws {
        let (read, key) = try Self.parsed(text)
        #expect(read == parameters)
        #expect(key == Self.rfcSeed)
    }

    @Test(
        "What is not a key is refused, and the message never quotes the secret",
        arguments: [
            "", "   ", "otpauth://hotp/x?secret=GEZDGNBV&counter=1", "otpauth://totp/x", "otpauth://totp/x?issuer=a",
            "otpauth://totp/x?secret=GEZD&secret=GEZD", "otpauth://totp/x?secret=GEZ1",
            "otpauth://totp/x?secret=GEZDGNBV&digits=9",
            "otpauth://totp/x?secret=GEZDGNBV&period=0", "otpauth://totp/x?secret=GEZDGNBV&algorithm=MD5", "SECRET0189",
            "GEZDGNBV==GE", "otpauth://totp/x?secret=", "https://example.com/?secret=GEZDGNBV",
        ])
    func refuses(text: String) {
        do {
            _ = try Self.parsed(text)
            Issue.record("accepted \(text)")
        } catch {
            let message = "\(error)"
            #expect(!message.contains("GEZD") && !message.contains("SECRET0189") && !message.isEmpty, "\(message)")
        }
    }

    @Test("A key survives the vault file, an old (1.1) reader's vault opens, and codes follow the vault's clock")
    func keptAndUsed() throws {
        // 59 s after 1970: RFC 6238's first vector (SHA-1, 8 digits: 94287082).
        let clock = Clock { Timestamp(millisecondsSince1970: 59_000) }
        let environment = VaultEnvironment(clock: clock, derivation: MemoizingDerivation())
        let vault = try createVault(in: temporary, environment: environment)
        let credential = try vault.add(
            services: [ServiceIdentifier("github.com")], username: "alice", secret: try secure("pw"))
        try vault.save()
        #expect(vault.header.minorVersion == VaultHeader.currentMinorVersion)
        try vault.setOneTimeKey(
            of: credential.id, to: OneTimeParameters(algorithm: .sha1, digits: 8, period: 30),
            key: try SecureBytes(copying: Self.rfcSeed))
        try vault.save()
        let reopened = try Vault.open(at: vault.path, password: try secure(testPassword), environment: environment)
        let stored = try #require(reopened.contents.credential(withID: credential.id))
        #expect(stored.totp?.parameters == OneTimeParameters(algorithm: .sha1, digits: 8, period: 30))
        let timed = try reopened.oneTimeCode(of: stored)
        #expect(timed.code.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } == "94287082")
        #expect(timed.secondsLeft == 1)
        #expect(
            try CredentialField.totp.render(stored, from: reopened).withUnsafeBytes {
                String(decoding: $0, as: UTF8.self)
            } == "94287082\n")
        #expect(
            try CredentialField.json.render(stored, from: reopened).withUnsafeBytes {
                String(decoding: $0, as: UTF8.self)
            }
            .contains("\"totp\":\"94287082\""))
        #expect(IdentityStore.Identity(stored).oneTime?.digits == 8)
        try reopened.setOneTimeKey(of: credential.id, to: nil, key: try SecureBytes(zeros: 0))
        try reopened.save()
        let cleared = try Vault.open(at: vault.path, password: try secure(testPassword), environment: environment)
        let withoutKey = try #require(cleared.contents.credential(withID: credential.id))
        #expect(withoutKey.totp == nil)
        #expect(throws: VaultError.self) { _ = try cleared.oneTimeCode(of: withoutKey).secondsLeft }
    }

    @Test("A key set by one process survives another process's save of another change (replayed like a password)")
    func survivesAConcurrentSave() throws {
        let environment = VaultEnvironment(clock: steppingClock(), derivation: MemoizingDerivation())
        let a = try createVault(in: temporary, environment: environment)
        let credential = try a.add(
            services: [ServiceIdentifier("github.com")], username: "alice", secret: try secure("pw"))
        try a.save()
        let b = try Vault.open(at: a.path, password: try secure(testPassword), environment: environment)
        try a.setOneTimeKey(of: credential.id, to: .standard, key: try SecureBytes(copying: Self.rfcSeed))
        try b.update(credential.id) { $0.title = "GitHub" }
        try b.save()
        try a.save()
        let merged = try Vault.open(at: a.path, password: try secure(testPassword), environment: environment)
        let stored = try #require(merged.contents.credential(withID: credential.id))
        #expect(stored.title == "GitHub")
        let key = try #require(stored.totp)
        #expect(merged.withSecret(key.key) { Array($0) } == Self.rfcSeed)
        #expect(secretText(merged, stored.secret) == "pw")
    }

    @Test(
        "A replaced or removed key is kept in the key history, through the file and another process's save (issue 24, 4)"
    )
    func aReplacedKeyIsKept() throws {
        let environment = VaultEnvironment(clock: steppingClock(), derivation: MemoizingDerivation())
        let a = try createVault(in: temporary, environment: environment)
        let credential = try a.add(
            services: [ServiceIdentifier("github.com")], username: "alice", secret: try secure("pw"))
        try a.setOneTimeKey(of: credential.id, to: .standard, key: try secure("first key"))
        try a.save()
        let b = try Vault.open(at: a.path, password: try secure(testPassword), environment: environment)
        try a.setOneTimeKey(of: credential.id, to: .standard, key: try secure("second key"))
        try b.update(credential.id) { $0.title = "GitHub" }
        try b.save()
        try a.save()  // replayed onto b's save
        let reopened = try Vault.open(at: a.path, password: try secure(testPassword), environment: environment)
        try reopened.setOneTimeKey(of: credential.id, to: nil, key: try SecureBytes(zeros: 0))
        try reopened.save()
        let stored = try #require(
            try Vault.open(at: a.path, password: try secure(testPassword), environment: environment)
                .contents.credential(withID: credential.id))
        let again = try Vault.open(at: a.path, password: try secure(testPassword), environment: environment)
        #expect(stored.title == "GitHub" && stored.totp == nil)
        #expect(stored.totpHistory.map { secretText(again, $0.key.key) } == ["first key", "second key"])
    }

    @Test("The identity store keeps which credentials have codes, and a secretless credential says so too")
    func identityStoreKeepsIt() throws {
        let vault = try createVault(
            in: temporary, environment: VaultEnvironment(clock: steppingClock(), derivation: MemoizingDerivation()))
        let with = try vault.add(services: [ServiceIdentifier("a.example")], username: "a", secret: try secure("pa"))
        try vault.add(services: [ServiceIdentifier("b.example")], username: "b", secret: try secure("pb"))
        try vault.setOneTimeKey(
            of: with.id, to: OneTimeParameters(algorithm: .sha256, digits: 7, period: 45),
            key: try SecureBytes(copying: Self.rfcSeed))
        try vault.save()
        let path = try temporary.freshPath("identities")
        try IdentityStore(vault: vault).save(to: path)
        let store = try #require(IdentityStore.load(from: path))
        #expect(
            store.identities.first { $0.username == "a" }?.oneTime
                == OneTimeParameters(algorithm: .sha256, digits: 7, period: 45))
        #expect(store.identities.first { $0.username == "b" }?.oneTime == nil)
        #expect(try store.identities.first { $0.username == "a" }?.secretlessCredential().totp?.parameters.period == 45)
    }
}
