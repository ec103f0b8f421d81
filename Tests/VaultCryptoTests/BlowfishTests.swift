import PwtuiTestSupport
import Testing
@testable import VaultCrypto

/// Blowfish's state as Resources/generate-blowfish-pi.py computes it from pi, against the values
/// Schneier's paper prints, and the cipher against the published test vectors (Eric Young's set,
/// on Schneier's site: key, plaintext, ciphertext).
@Suite struct BlowfishTests {
    @Test("the initial state is pi's fraction: P1..P4 as the paper gives them, S1[0], S4[255]")
    func piDigits() {
        #expect(BlowfishPi.p.count == 18 && BlowfishPi.s.count == 1024)
        #expect(Array(BlowfishPi.p.prefix(4)) == [0x243F_6A88, 0x85A3_08D3, 0x1319_8A2E, 0x0370_7344])
        #expect(BlowfishPi.s.first == 0xD131_0BA6)
        #expect(BlowfishPi.s.last == 0x3AC3_72E6)
    }

    @Test(
        "Schneier's test vectors",
        arguments: [
            ("0000000000000000", "0000000000000000", "4ef997456198dd78"),
            ("ffffffffffffffff", "ffffffffffffffff", "51866fd5b85ecb8a"),
            ("3000000000000000", "1000000000000001", "7d856f9a613063f2"),
            ("1111111111111111", "1111111111111111", "2466dd878b963c9d"),
            ("0123456789abcdef", "1111111111111111", "61f9c3802281b096"),
            ("fedcba9876543210", "0123456789abcdef", "0aceab0fc6a0a28d"),
        ])
    func vectors(key: String, plaintext: String, ciphertext: String) throws {
        let keyBytes = try secure(hex(key))
        var cipher = try keyBytes.withUnsafeBytes { try Blowfish(key: $0) }
        var block = hex(plaintext)
        try cipher.encrypt(block: &block)
        #expect(hex(block) == ciphertext)
    }

    @Test("an empty key is refused; a short block is refused")
    func refusals() throws {
        let empty = try secure([])
        #expect(throws: VaultCryptoError.self) { _ = try empty.withUnsafeBytes { try Blowfish(key: $0) } }
        let one = try secure([1])
        var cipher = try one.withUnsafeBytes { try Blowfish(key: $0) }
        var short: [UInt8] = [1, 2, 3]
        #expect(throws: VaultCryptoError.self) { try cipher.encrypt(block: &short) }
    }
}
