/// Everything the cryptographic layer can refuse, in words a user can act on.
public enum VaultCryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libsodium could not initialise (no entropy source, usually a broken sandbox).
    case libraryUnavailable
    /// `sodium_malloc` refused: the process is out of memory or address space.
    case outOfSecureMemory(requestedBytes: Int)
    /// A fixed-size secure buffer was asked to hold more than it was made for.
    case capacityExceeded(capacity: Int)
    /// Argon2id could not run, almost always because the memory it needs is not available.
    case keyDerivationFailed(memoryBytes: Int)
    /// A key, nonce or parameter of the wrong size or range reached a primitive.
    case invalidInput(String)
    /// AEAD decryption failed: wrong key, or the ciphertext, nonce or associated data changed.
    case authenticationFailed

    public var description: String {
        switch self {
        case .libraryUnavailable:
            return "libsodium could not be initialised (is /dev/urandom readable?)"
        case .outOfSecureMemory(let bytes):
            return "could not allocate \(bytes) bytes of protected memory; free some memory and try again"
        case .capacityExceeded(let capacity):
            return "input longer than the \(capacity) bytes allowed"
        case .keyDerivationFailed(let bytes):
            return "the key derivation needs \(bytes / (1 << 20)) MiB of memory, which is not available"
        case .invalidInput(let what):
            return "invalid cryptographic input: \(what)"
        case .authenticationFailed:
            return "authentication failed: wrong key or modified data"
        }
    }
}

/// Runs `body`, whose closures pass through a `rethrows` API (Array's `withUnsafeBytes` and the
/// like, which widen a typed error to `any Error`), and narrows the error back.
@inline(__always)
func narrowingErrors<Result>(_ body: () throws -> Result) throws(VaultCryptoError) -> Result {
    do {
        return try body()
    } catch let error as VaultCryptoError {
        throw error
    } catch {
        throw .invalidInput("\(error)")
    }
}
