import VaultCrypto

/// How a credential's one-time codes are made (what an `otpauth://totp/` URI says besides the
/// key): the HMAC, the number of digits, and the period in seconds.
public struct OneTimeParameters: Sendable, Equatable, Codable {
    public var algorithm: HMAC.Algorithm
    public var digits: Int
    public var period: Int

    /// RFC 6238's defaults, which most sites use.
    public static let standard = OneTimeParameters(algorithm: .sha1, digits: 6, period: 30)
    public static let periodRange = 1 ... 86_400

    public init(algorithm: HMAC.Algorithm, digits: Int, period: Int) {
        self.algorithm = algorithm
        self.digits = digits
        self.period = period
    }

    /// Whether a code can be made with these: checked wherever they arrive (a URI, a client, a file).
    public var isValid: Bool { OneTimeCode.digitRange.contains(digits) && Self.periodRange.contains(period) }
}

/// A credential's authenticator key: its parameters, and the key itself where it lies in the
/// vault's `SecretArena` (never a String, like the password).
public struct OneTimeKey: Sendable, Equatable {
    public var parameters: OneTimeParameters
    public var key: SecretReference

    public init(parameters: OneTimeParameters, key: SecretReference) {
        self.parameters = parameters
        self.key = key
    }
}

/// A key read from the user (a URI or base32 text), before it is stored: the key in protected memory.
public struct ParsedOneTimeKey: ~Copyable {
    public var parameters: OneTimeParameters
    public var key: SecureBytes
}
