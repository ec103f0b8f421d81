import VaultCrypto
import Platform

/// What a vault depends on from the outside world, gathered so tests can replace each part:
/// the clock, the key derivation (a memoising one for tests that open a vault thousands of
/// times), how much key-derivation work an opened file may ask for, and the least a written one
/// may.
public struct VaultEnvironment: Sendable {
    public var clock: Clock
    public var derivation: any KeyDerivation
    public var bounds: KDFParameters.Bounds
    /// The least key-derivation work a file written here asks for: the format's floor (3 passes,
    /// 64 MiB). Only the package's tests lower it (`package`), to Argon2id's own minimum, so that
    /// the vaults they make cost microseconds to open, in process and in the binary, which opens
    /// any file down to that minimum; nothing a user runs can lower it.
    package var writingFloor: KDFParameters = .minimumForWriting

    public init(
        clock: Clock = .system, derivation: any KeyDerivation = Argon2id(),
        bounds: KDFParameters.Bounds = .standard
    ) {
        self.clock = clock
        self.derivation = derivation
        self.bounds = bounds
    }

    public static let standard = VaultEnvironment()
}
