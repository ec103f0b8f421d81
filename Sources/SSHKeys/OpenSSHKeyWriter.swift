import VaultCrypto

/// Writes a key as OpenSSH's own unencrypted private key file (`openssh-key-v1`, as
/// `ssh-keygen -N ''` writes it; the layout is in `OpenSSHKeyFile`), for `ssh export --private`:
/// ssh, ssh-add and `ssh-keygen -y` read it. Built in protected memory from start to end: the
/// private section, the whole file, and its base64 text.
public enum OpenSSHKeyWriter {
    /// The file's text (PEM-style armour, base64 in lines of 70 as ssh-keygen writes them) for
    /// `key` as `SSHKeyItem` keeps it, with `comment`.
    public static func file(for key: borrowing SecureBytes, comment: String) throws -> SecureBytes {
        let publicBlob = try SSHPrivateKey.publicKeyBlob(key)
        var section = try SecureBytes(capacity: 6 * 1024)
        // The check numbers: random and equal, as ssh-keygen makes them.
        let check = try SecureBytes.random(count: 4)
        try check.withUnsafeBytes { try section.append(contentsOf: $0) }
        try check.withUnsafeBytes { try section.append(contentsOf: $0) }
        if key.count == Ed25519.seedByteCount {
            let publicKey = try Ed25519.publicKey(seed: key)
            try appendString(Array(SSHWire.ed25519KeyType.utf8), to: &section)
            try appendString(publicKey, to: &section)
            try appendLength(64, to: &section)
            try section.append(contentsOf: key)
            try publicKey.withUnsafeBytes { try section.append(contentsOf: $0) }
        } else {
            let parts = try OpenSSLKeyParts.parts(of: key)
            switch try OpenSSLKey.publicKey(der: key) {
            case .rsa:
                try appendString(Array(SSHWire.rsaKeyType.utf8), to: &section)
                try appendMPInts(parts.numbers, lengths: parts.lengths, to: &section)
            case .ecdsaP256(let point):
                try appendString(Array(SSHWire.ecdsaP256KeyType.utf8), to: &section)
                try appendString(Array(SSHWire.ecdsaP256Curve.utf8), to: &section)
                try appendString(point, to: &section)
                try appendMPInts(parts.numbers, lengths: parts.lengths, to: &section)
            }
        }
        try appendString(Array(comment.utf8), to: &section)
        var pad: UInt8 = 1
        while section.count % 8 != 0 {
            try section.append(pad)
            pad += 1
        }

        var whole = try SecureBytes(capacity: section.count + publicBlob.count + 128)
        try OpenSSHKeyFile.magic.withUnsafeBytes { try whole.append(contentsOf: $0) }
        try appendString(Array("none".utf8), to: &whole)
        try appendString(Array("none".utf8), to: &whole)
        try appendString([], to: &whole)
        try appendLength(1, to: &whole)
        try appendString(publicBlob, to: &whole)
        try appendLength(section.count, to: &whole)
        try whole.append(contentsOf: section)

        let body = try Base64.encode(whole, lineLength: 70)
        var text = try SecureBytes(capacity: body.count + 80)
        try text.append(utf8: "-----BEGIN \(OpenSSHKeyFile.label)-----\n")
        try text.append(contentsOf: body)
        try text.append(utf8: "-----END \(OpenSSHKeyFile.label)-----\n")
        return text
    }

    private static func appendLength(_ length: Int, to bytes: inout SecureBytes) throws {
        for shift in [24, 16, 8, 0] { try bytes.append(UInt8(truncatingIfNeeded: length >> shift)) }
    }

    private static func appendString(_ value: [UInt8], to bytes: inout SecureBytes) throws {
        try appendLength(value.count, to: &bytes)
        try value.withUnsafeBytes { try bytes.append(contentsOf: $0) }
    }

    /// Secret magnitudes, one after the other in `numbers`, as mpints (a zero byte before a
    /// magnitude whose top bit is set, so it is not read as negative).
    private static func appendMPInts(
        _ numbers: borrowing SecureBytes, lengths: [Int], to bytes: inout SecureBytes
    ) throws {
        try numbers.withUnsafeBytes { numbers in
            var offset = 0
            for length in lengths {
                let magnitude = UnsafeRawBufferPointer(rebasing: numbers[offset ..< offset + length])
                let sign = (magnitude.first ?? 0) & 0x80 != 0
                try appendLength(length + (sign ? 1 : 0), to: &bytes)
                if sign { try bytes.append(0) }
                try bytes.append(contentsOf: magnitude)
                offset += length
            }
        }
    }
}
