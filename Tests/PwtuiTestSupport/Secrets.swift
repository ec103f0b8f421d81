import VaultCrypto

/// A secret for a test, from bytes or text, in `SecureBytes` like every secret in pwtui.
package func secure(_ bytes: [UInt8]) throws(VaultCryptoError) -> SecureBytes {
    var secret = try SecureBytes(capacity: bytes.count)
    for byte in bytes { try secret.append(byte) }
    return secret
}

package func secure(_ text: String) throws(VaultCryptoError) -> SecureBytes {
    try secure(Array(text.utf8))
}

/// What a secret holds, copied out for a comparison.
package func contents(_ bytes: borrowing SecureBytes) -> [UInt8] {
    bytes.withUnsafeBytes { Array($0) }
}
