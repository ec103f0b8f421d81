import PwtuiTestSupport
import Testing
import VaultCrypto

/// RFC 8032 section 7.1, test vectors 1 and 2 (the secret key there is the 32-byte seed).
@Suite struct Ed25519Tests {
    @Test("RFC 8032 test 1: the public key and the signature of the empty message")
    func vectorOne() throws {
        let seed = try secure(hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"))
        let publicKey = try Ed25519.publicKey(seed: seed)
        #expect(hex(publicKey) == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
        let signature = try [UInt8]().withUnsafeBytes { try Ed25519.sign($0, seed: seed) }
        #expect(
            hex(signature)
                == "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        )
        #expect(try [UInt8]().withUnsafeBytes { try Ed25519.verify(signature, of: $0, publicKey: publicKey) })
    }

    @Test("RFC 8032 test 2: a one-byte message; a changed message does not verify")
    func vectorTwo() throws {
        let seed = try secure(hex("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb"))
        let signature = try [UInt8]([0x72]).withUnsafeBytes { try Ed25519.sign($0, seed: seed) }
        #expect(
            hex(signature)
                == "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
        )
        let publicKey = try Ed25519.publicKey(seed: seed)
        #expect(try [UInt8]([0x73]).withUnsafeBytes { try !Ed25519.verify(signature, of: $0, publicKey: publicKey) })
    }

    @Test func aSeedOfTheWrongLengthIsRefused() throws {
        #expect(throws: VaultCryptoError.self) {
            try Ed25519.publicKey(seed: try secure(Array(repeating: 1, count: 31)))
        }
        let fresh = try Ed25519.newSeed()
        #expect(fresh.count == Ed25519.seedByteCount)
    }
}
