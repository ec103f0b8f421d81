import VaultCrypto

/// Hex helpers for the vectors.
func hex(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        bytes.append(UInt8(text[index ..< next], radix: 16)!)
        index = next
    }
    return bytes
}

func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}

func secure(_ bytes: [UInt8]) throws -> SecureBytes {
    var secret = try SecureBytes(capacity: bytes.count)
    try bytes.withUnsafeBytes { try secret.append(contentsOf: $0) }
    return secret
}

func contents(_ bytes: borrowing SecureBytes) -> [UInt8] {
    bytes.withUnsafeBytes { Array($0) }
}
