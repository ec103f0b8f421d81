import VaultCrypto

/// One request of git's credential-helper protocol (`git help credential`): `key=value` lines on
/// stdin up to a blank line. The password, when git sends one (`store`, `erase`), goes straight
/// from the input buffer into protected memory; everything else is plain text.
public struct GitCredentialRequest: ~Copyable {
    public var fields: [String: String] = [:]
    public var password: SecureBytes?

    public init(fields: [String: String] = [:], password: consuming SecureBytes?) {
        self.fields = fields
        self.password = password
    }

    /// Parses the protocol's bytes, held in protected memory since they may carry a password.
    public static func parse(_ input: borrowing SecureBytes) throws -> GitCredentialRequest {
        var fields: [String: String] = [:]
        var password: SecureBytes?
        try input.withUnsafeBytes { bytes in
            try parse(bytes, fields: &fields, password: &password)
        }
        return GitCredentialRequest(fields: fields, password: password)
    }

    private static func parse(_ input: UnsafeRawBufferPointer, fields: inout [String: String], password: inout SecureBytes?) throws {
        var lineStart = 0
        while lineStart < input.count {
            var lineEnd = lineStart
            while lineEnd < input.count, input[lineEnd] != 0x0A { lineEnd += 1 }
            let line = UnsafeRawBufferPointer(rebasing: input[lineStart ..< lineEnd])
            lineStart = lineEnd + 1
            if line.isEmpty { break }
            guard let equals = line.firstIndex(of: 0x3D) else { continue }
            let key = String(decoding: UnsafeRawBufferPointer(rebasing: line[..<equals]), as: UTF8.self)
            let value = UnsafeRawBufferPointer(rebasing: line[(equals + 1)...])
            if key == "password" {
                password = try cryptoCall { () throws(VaultCryptoError) in try SecureBytes(copying: value) }
            } else {
                fields[key] = String(decoding: value, as: UTF8.self)
            }
        }
    }

    /// The request as a service identifier: `protocol://host[:port]/path`. Nil when git sent no
    /// host or a protocol other than http(s) (ssh keys are not pwtui's business).
    public func service() throws -> ServiceIdentifier? {
        guard let scheme = fields["protocol"], scheme == "http" || scheme == "https",
              let host = fields["host"], !host.isEmpty else { return nil }
        let path = fields["path"].map { "/" + $0 } ?? "/"
        return try ServiceIdentifier("\(scheme)://\(host)\(path)")
    }

    public var username: String? { fields["username"].flatMap { $0.isEmpty ? nil : $0 } }
}
