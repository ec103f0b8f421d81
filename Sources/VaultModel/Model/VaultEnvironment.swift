import VaultCrypto
import Platform

/// What a vault depends on from the outside world, gathered so tests can replace each part:
/// the clock, the key derivation (a memoising one for tests that open a vault thousands of
/// times), and how much key-derivation work an opened file may ask for.
public struct VaultEnvironment: Sendable {
    public var clock: Clock
    public var derivation: any KeyDerivation
    public var bounds: KDFParameters.Bounds

    public init(clock: Clock = .system, derivation: any KeyDerivation = Argon2id(),
                bounds: KDFParameters.Bounds = .standard) {
        self.clock = clock
        self.derivation = derivation
        self.bounds = bounds
    }

    public static let standard = VaultEnvironment()
}
