import PwtuiTestSupport
import Testing
import VaultCrypto

/// draft-irtf-cfrg-xchacha-03, appendix A.3.1; the same vector appears in RustCrypto's and
/// NSec's test suites.
@Suite struct XChaCha20Poly1305Tests {
    let plaintext = Array(
        "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."
            .utf8)
    let associatedData = hex("50515253c0c1c2c3c4c5c6c7")
    let key = hex("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f")
    let nonce = hex("404142434445464748494a4b4c4d4e4f5051525354555657")
    let expected = hex(
        "bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb731c7f1b0b4aa6440bf3a82f4eda7e39"
            + "ae64c6708c54c216cb96b72e1213b4522f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff9"
            + "21f9664c97637da9768812f615c68b13b52e" + "c0875924c1c7987947deafd8780acf49")

    @Test func sealMatchesTheDraftVector() throws {
        let sealed = try XChaCha20Poly1305.seal(
            try secure(plaintext), key: try secure(key), nonce: nonce, associatedData: associatedData)
        #expect(hex(sealed) == hex(expected))
    }

    @Test func openRecoversTheDraftPlaintext() throws {
        let opened = try XChaCha20Poly1305.open(
            expected, key: try secure(key), nonce: nonce, associatedData: associatedData)
        #expect(contents(opened) == plaintext)
    }

    @Test func everyFlippedCiphertextBitIsRejected() throws {
        let key = try secure(key)
        for index in expected.indices {
            var tampered = expected
            tampered[index] ^= 0x01
            #expect(throws: VaultCryptoError.authenticationFailed) {
                _ = try XChaCha20Poly1305.open(tampered, key: key, nonce: nonce, associatedData: associatedData)
            }
        }
    }

    @Test func wrongKeyNonceOrAssociatedDataIsRejected() throws {
        var otherKey = key
        otherKey[0] ^= 0x80
        #expect(throws: VaultCryptoError.authenticationFailed) {
            _ = try XChaCha20Poly1305.open(
                expected, key: try secure(otherKey), nonce: nonce, associatedData: associatedData)
        }
        var otherNonce = nonce
        otherNonce[23] ^= 0x01
        #expect(throws: VaultCryptoError.authenticationFailed) {
            _ = try XChaCha20Poly1305.open(
                expected, key: try secure(key), nonce: otherNonce, associatedData: associatedData)
        }
        #expect(throws: VaultCryptoError.authenticationFailed) {
            _ = try XChaCha20Poly1305.open(
                expected, key: try secure(key), nonce: nonce, associatedData: associatedData + [0])
        }
        #expect(throws: VaultCryptoError.authenticationFailed) {
            _ = try XChaCha20Poly1305.open(
                Array(expected.dropLast()), key: try secure(key), nonce: nonce, associatedData: associatedData)
        }
    }

    /// The in-place forms (a vault's payload sealed in the buffer it was encoded in, and its
    /// read-back decrypted where it lies) give exactly the ciphertext and plaintext of the others.
    @Test func inPlaceSealAndOpenMatchTheDraftVector() throws {
        let key = try secure(key)
        var buffer = plaintext + [UInt8](repeating: 0, count: XChaCha20Poly1305.tagByteCount)
        try buffer.withUnsafeMutableBytes { bytes in
            try nonce.withUnsafeBytes { nonce in
                try associatedData.withUnsafeBytes { ad in
                    try XChaCha20Poly1305.sealInPlace(bytes, key: key, nonce: nonce, associatedData: ad)
                }
            }
        }
        #expect(hex(buffer) == hex(expected))
        try buffer.withUnsafeMutableBytes { bytes in
            try nonce.withUnsafeBytes { nonce in
                try associatedData.withUnsafeBytes { ad in
                    try XChaCha20Poly1305.openInPlace(bytes, key: key, nonce: nonce, associatedData: ad)
                }
            }
        }
        #expect(Array(buffer.prefix(plaintext.count)) == plaintext)
    }

    /// A damaged ciphertext opened in place fails as a whole, and leaves no decrypted byte behind.
    @Test func inPlaceOpenRejectsAFlippedBitAndLeavesNoPlaintext() throws {
        let key = try secure(key)
        for index in [0, plaintext.count / 2, expected.count - 1] {
            var tampered = expected
            tampered[index] ^= 0x01
            #expect(throws: VaultCryptoError.authenticationFailed) {
                try tampered.withUnsafeMutableBytes { bytes in
                    try nonce.withUnsafeBytes { nonce in
                        try associatedData.withUnsafeBytes { ad in
                            try XChaCha20Poly1305.openInPlace(bytes, key: key, nonce: nonce, associatedData: ad)
                        }
                    }
                }
            }
            #expect(tampered.prefix(plaintext.count).allSatisfy { $0 == 0 })
        }
    }

    /// Opening into a caller's buffer (a journal's records, one after the other into one) gives
    /// the draft's plaintext; a flipped bit fails and leaves the buffer zeroed, and a buffer of
    /// the wrong size is refused before anything is decrypted.
    @Test func openIntoABufferMatchesTheDraftVectorAndLeavesNothingOnFailure() throws {
        let key = try secure(key)
        func open(_ sealed: [UInt8], into output: inout [UInt8]) throws {
            try sealed.withUnsafeBytes { sealed in
                try output.withUnsafeMutableBytes { output in
                    try nonce.withUnsafeBytes { nonce in
                        try associatedData.withUnsafeBytes { ad in
                            try XChaCha20Poly1305.open(sealed, into: output, key: key, nonce: nonce, associatedData: ad)
                        }
                    }
                }
            }
        }
        var output = [UInt8](repeating: 0xAA, count: plaintext.count)
        try open(expected, into: &output)
        #expect(output == plaintext)
        var tampered = expected
        tampered[plaintext.count / 2] ^= 0x01
        #expect(throws: VaultCryptoError.authenticationFailed) { try open(tampered, into: &output) }
        #expect(output.allSatisfy { $0 == 0 })
        var short = [UInt8](repeating: 0, count: plaintext.count - 1)
        #expect(throws: VaultCryptoError.self) { try open(expected, into: &short) }
    }

    @Test func emptyPlaintextAndAssociatedDataRoundTrip() throws {
        let key = try SecureBytes.random(count: XChaCha20Poly1305.keyByteCount)
        let nonce = try RandomBytes.make(XChaCha20Poly1305.nonceByteCount)
        let sealed = try XChaCha20Poly1305.seal(
            try SecureBytes(capacity: 0), key: key, nonce: nonce, associatedData: [])
        #expect(sealed.count == XChaCha20Poly1305.tagByteCount)
        let opened = try XChaCha20Poly1305.open(sealed, key: key, nonce: nonce, associatedData: [])
        #expect(opened.count == 0)
    }

    @Test func wrongSizedKeyOrNonceIsAnInputError() throws {
        #expect(throws: VaultCryptoError.self) {
            _ = try XChaCha20Poly1305.seal(
                try secure(plaintext), key: try secure(Array(key.prefix(16))), nonce: nonce, associatedData: [])
        }
        #expect(throws: VaultCryptoError.self) {
            _ = try XChaCha20Poly1305.seal(
                try secure(plaintext), key: try secure(key), nonce: Array(nonce.prefix(12)), associatedData: [])
        }
    }
}
