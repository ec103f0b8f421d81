import PwtuiTestSupport
import Testing
import VaultCrypto

#if canImport(Glibc)
    import Glibc
#endif

/// bcrypt-pbkdf against values from another implementation: pyca's `bcrypt` package 5.0.0
/// (`bcrypt.kdf(password, salt, desired_key_bytes, rounds)`), run once to write them here. The
/// first is also the package's own published test vector.
@Suite struct BcryptPBKDFTests {
    static func derive(_ passphrase: [UInt8], _ salt: [UInt8], rounds: Int, length: Int) throws -> String {
        let passphrase = try secure(passphrase)
        let salt = try secure(salt)
        let key = try passphrase.withUnsafeBytes { passphrase in
            try salt.withUnsafeBytes { salt in
                try BcryptPBKDF.derive(passphrase: passphrase, salt: salt, rounds: rounds, keyLength: length)
            }
        }
        return key.withUnsafeBytes { hex(Array($0)) }
    }

    @Test("pyca/bcrypt's values: one block, two interleaved blocks (an AES-256 key and IV), three with a long salt")
    func vectors() throws {
        #expect(
            try Self.derive(Array("password".utf8), Array("salt".utf8), rounds: 4, length: 32)
                == "5bbf0cc293587f1c3635555c27796598d47e579071bf427e9d8fbe842aba34d9")
        #expect(
            try Self.derive(Array("correct horse".utf8), Array(0 ..< 16), rounds: 16, length: 48)
                == "6bd628cd9202c5d0cb3e47dc1332be0162d3d4262dac8dac9f00998434479f36930c217fd05e33a7e77e207f680659d2")
        #expect(
            try Self.derive(
                Array(repeating: [0x00, 0xFF], count: 40).flatMap { $0 }, Array(repeating: 0x61, count: 100),
                rounds: 2, length: 80)
                == "0acd85cf68d537cb5e6cd7022e492ba03da4fbe78df70f92b77308a3335d90070b6696a966874aeaf5614bd0ca3bb23383e1cb594e3adce914f7da547ccb5ead9577686e2bfd5c8ef53a76e8e593f375"
        )
    }

    @Test("rounds, key and salt lengths out of range are refused before any work")
    func bounds() throws {
        #expect(throws: VaultCryptoError.self) { _ = try Self.derive([1], [1], rounds: 0, length: 32) }
        #expect(throws: VaultCryptoError.self) {
            _ = try Self.derive([1], [1], rounds: BcryptPBKDF.maximumRounds + 1, length: 32)
        }
        #expect(throws: VaultCryptoError.self) { _ = try Self.derive([1], [], rounds: 1, length: 32) }
        #expect(throws: VaultCryptoError.self) { _ = try Self.derive([1], [1], rounds: 1, length: 0) }
    }

    @Test(
        "ssh-keygen's default (16 rounds, 48 bytes for aes256-ctr) takes under 10 s even in a debug build; the time is printed"
    )
    func defaultRoundsTime() throws {
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            _ = try Self.derive(Array("passphrase".utf8), Array(0 ..< 16), rounds: 16, length: 48)
        }
        print("bcrypt-pbkdf, 16 rounds, 48 bytes: \(elapsed)")
        #expect(elapsed < .seconds(10))
    }
}
