import Foundation
import PwtuiTestSupport
import ServiceMatching
import Testing
import VaultCrypto
@testable import VaultModel

/// What a damaged, truncated, extended, foreign or hostile file gets: always a named error of
/// the "corrupt or unsupported" kind (exit 65), never "wrong password", never success.
@Suite struct VaultDamageTests {
    let temporary = TemporaryDirectory()
    let derivation = MemoizingDerivation()
    var environment: VaultEnvironment { VaultEnvironment(derivation: derivation) }

    /// A small vault with two credentials, one with history, and a tombstone.
    func smallVault() throws -> (path: String, bytes: [UInt8]) {
        let vault = try createVault(in: temporary, environment: environment)
        let path = vault.path
        let first = try vault.add(
            services: [ServiceIdentifier("github.com")], username: "alice", secret: try secure("s3cret"))
        try vault.replaceSecret(of: first.id, with: try secure("s3cret2"))
        let second = try vault.add(
            services: [ServiceIdentifier("x.example")], username: "bob", secret: try secure("pw"))
        try vault.remove(second.id)
        try vault.save()
        return (path, try readFile(path))
    }

    enum Outcome: Equatable {
        case opened, damaged, unsupported, wrongPassword, other(String)
    }

    func open(_ bytes: [UInt8], at path: String, password: String = testPassword) -> Outcome {
        do {
            try writeFile(path, bytes)
            _ = try Vault.open(at: path, password: try secure(password), environment: environment)
            return .opened
        } catch VaultError.corrupt {
            return .damaged
        } catch VaultError.unsupported, VaultError.keyDerivationTooExpensive {
            return .unsupported
        } catch VaultError.wrongPassword {
            return .wrongPassword
        } catch {
            return .other("\(error)")
        }
    }

    /// Every header byte and a stride through the payload (`PropertySize.offsets`); every byte in
    /// `make bench-properties`.
    @Test func everySingleByteChangeIsReportedAsDamage() throws {
        let (path, original) = try smallVault()
        #expect(open(original, at: path) == .opened)
        for offset in PropertySize.offsets(in: original.count) {
            for mask: UInt8 in [0x01, 0x80, 0xFF] {
                var damaged = original
                damaged[offset] ^= mask
                let outcome = open(damaged, at: path)
                // The version field may turn into an unknown version: that is "unsupported".
                let acceptable: Set<String> = (8 ..< 12).contains(offset) ? ["damaged", "unsupported"] : ["damaged"]
                #expect(acceptable.contains("\(outcome)"), "byte \(offset) ^ \(mask): \(outcome)")
            }
        }
    }

    /// A snapshot cut short is damage. Bytes after it that are not a whole journal frame are a
    /// torn record (a writer killed mid-append), left out; a whole frame that does not open is
    /// damage (VaultJournalTests has the records' own cases).
    @Test func everyTruncationIsDamageAndATornTailIsLeftOut() throws {
        let (path, original) = try smallVault()
        for length in PropertySize.offsets(in: original.count) {
            let outcome = open(Array(original.prefix(length)), at: path)
            #expect(outcome == .damaged, "truncated to \(length): \(outcome)")
        }
        for extra: [UInt8] in [[0], [0xFF], [UInt8](repeating: 0, count: 4096), [200, 0, 0, 0, 1]] {
            #expect(open(original + extra, at: path) == .opened)
        }
        // A frame of 100 bytes, whole, whose lengths agree, but that is not a record of this vault.
        var frame: [UInt8] = [100, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]
        frame += [UInt8](repeating: 0xAB, count: 100)
        frame += [100, 0, 0, 0]
        #expect(open(original + frame, at: path) == .damaged)
        #expect(open(original + frame + [0xFF], at: path) == .damaged)
    }

    @Test func wrongPasswordIsNeverCalledDamage() throws {
        let (path, original) = try smallVault()
        for password in ["", "correct horse ", "Correct horse", "wrong"] {
            #expect(open(original, at: path, password: password) == .wrongPassword)
        }
    }

    @Test func foreignFilesAreNotVaults() throws {
        let path = try temporary.freshPath("v.pwtui")
        for bytes in [[], Array("{\"json\": true}".utf8), [UInt8](repeating: 0, count: 5000)] {
            #expect(open(bytes, at: path) == .damaged)
        }
        #expect(throws: VaultError.notFound(path: path + ".missing")) {
            _ = try Vault.open(at: path + ".missing", password: try secure("x"), environment: environment)
        }
    }

    /// Rewrites header fields and recomputes the checksum, as a hostile or newer writer would.
    func rewritingHeader(_ bytes: [UInt8], _ change: (inout [UInt8]) -> Void) throws -> [UInt8] {
        var copy = bytes
        change(&copy)
        let checksum = try BLAKE2b.hash(Array(copy[0 ..< VaultHeader.checksumOffset]))
        copy.replaceSubrange(VaultHeader.checksumOffset ..< VaultHeader.byteCount, with: checksum)
        return copy
    }

    @Test func unknownMajorVersionIsRefusedAndNeverOverwritten() throws {
        let (path, original) = try smallVault()
        let newer = try rewritingHeader(original) {
            $0[8] = 2; $0[9] = 0
        }
        #expect(open(newer, at: path) == .unsupported)

        // A vault opened before the file was replaced by a newer version must not overwrite it.
        try writeFile(path, original)
        let vault = try Vault.open(at: path, password: try secure(testPassword), environment: environment)
        try writeFile(path, newer)
        try vault.add(services: [ServiceIdentifier("a.example")], username: "u", secret: try secure("p"))
        #expect(throws: VaultError.self) { try vault.save() }
        #expect(try readFile(path) == newer)
        // Creating a vault where one exists is refused too.
        let fresh = try Vault.create(
            at: path, password: try secure("other"), parameters: .interactive, environment: environment)
        #expect(throws: VaultError.self) { try fresh.save() }
        #expect(try readFile(path) == newer)
    }

    @Test func unknownCriticalFlagIsRefused() throws {
        let (path, original) = try smallVault()
        let flagged = try rewritingHeader(original) { $0[12] |= 0x02 }
        #expect(open(flagged, at: path) == .unsupported)
        let informational = try rewritingHeader(original) { $0[14] |= 0x01 }
        // A non-critical flag does not stop a reader; the payload's AD still catches the edit.
        #expect(open(informational, at: path) == .damaged)
    }

    @Test func expensiveKeyDerivationIsRefusedBeforeAnyWork() throws {
        let (path, original) = try smallVault()
        func withKDF(ops: UInt32, memKiB: UInt32) throws -> [UInt8] {
            try rewritingHeader(original) { bytes in
                withUnsafeBytes(of: ops.littleEndian) { bytes.replaceSubrange(42 ..< 46, with: $0) }
                withUnsafeBytes(of: memKiB.littleEndian) { bytes.replaceSubrange(46 ..< 50, with: $0) }
            }
        }
        let before = derivation.derivations
        #expect(open(try withKDF(ops: 11, memKiB: 64 * 1024), at: path) == .unsupported)
        #expect(open(try withKDF(ops: 3, memKiB: 1024 * 1024 + 1), at: path) == .unsupported)
        #expect(open(try withKDF(ops: UInt32.max, memKiB: UInt32.max), at: path) == .unsupported)
        #expect(open(try withKDF(ops: 0, memKiB: 64 * 1024), at: path) == .damaged)
        #expect(derivation.derivations == before)

        let generous = VaultEnvironment(
            derivation: derivation, bounds: .init(maxOpsLimit: 20, maxMemLimitKiB: 1024 * 1024))
        try writeFile(path, try withKDF(ops: 11, memKiB: 64 * 1024))
        // Allowed by wider bounds, the derivation runs, and the commitment then says "wrong key".
        #expect(throws: VaultError.wrongPassword(path: path)) {
            _ = try Vault.open(at: path, password: try secure(testPassword), environment: generous)
        }
    }

    @Test func tamperingThatKeepsTheChecksumIsStillCaught() throws {
        let (path, original) = try smallVault()
        // The generation is outside the key-wrapping AD but inside the payload's.
        let bumped = try rewritingHeader(original) { $0[32] &+= 1 }
        #expect(open(bumped, at: path) == .damaged)
        // The wrapped key itself.
        let wrapped = try rewritingHeader(original) { $0[100] ^= 1 }
        #expect(open(wrapped, at: path) == .damaged)
    }
}
