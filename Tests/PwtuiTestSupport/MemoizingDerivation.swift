import Synchronization
import VaultCrypto

/// Argon2id once per (password, salt, parameters), then from memory: lets a test open the same
/// vault thousands of times. It also counts real derivations, so a test can prove that a file
/// was refused before any key-derivation work.
package final class MemoizingDerivation: KeyDerivation {
    private struct Key: Hashable {
        let password: [UInt8]
        let salt: [UInt8]
        let parameters: KDFParameters
    }

    private let cache = Mutex<[Key: [UInt8]]>([:])
    private let calls = Atomic<Int>(0)

    package init() {}

    package var derivations: Int { calls.load(ordering: .relaxed) }

    package func deriveKey(password: borrowing SecureBytes, salt: [UInt8], parameters: KDFParameters)
        throws(VaultCryptoError) -> SecureBytes
    {
        calls.add(1, ordering: .relaxed)
        let key = Key(password: password.withUnsafeBytes { Array($0) }, salt: salt, parameters: parameters)
        if let cached = cache.withLock({ $0[key] }) { return try secure(cached) }
        let derived = try Argon2id().deriveKey(password: password, salt: salt, parameters: parameters)
        let bytes = derived.withUnsafeBytes { Array($0) }
        cache.withLock { $0[key] = bytes }
        return derived
    }
}
