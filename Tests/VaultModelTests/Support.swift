import Foundation
import Synchronization
import VaultCrypto
@testable import VaultModel

/// Argon2id once per (password, salt, parameters), then from memory: lets a test open the same
/// vault thousands of times. It also counts real derivations, so a test can prove that a file
/// was refused before any key-derivation work.
final class MemoizingDerivation: KeyDerivation {
    private struct Key: Hashable {
        let password: [UInt8]
        let salt: [UInt8]
        let parameters: KDFParameters
    }

    private let cache = Mutex<[Key: [UInt8]]>([:])
    private let calls = Atomic<Int>(0)

    var derivations: Int { calls.load(ordering: .relaxed) }

    func deriveKey(password: borrowing SecureBytes, salt: [UInt8], parameters: KDFParameters) throws(VaultCryptoError) -> SecureBytes {
        calls.add(1, ordering: .relaxed)
        let key = Key(password: password.withUnsafeBytes { Array($0) }, salt: salt, parameters: parameters)
        if let cached = cache.withLock({ $0[key] }) { return try secure(cached) }
        let derived = try Argon2id().deriveKey(password: password, salt: salt, parameters: parameters)
        let bytes = derived.withUnsafeBytes { Array($0) }
        cache.withLock { $0[key] = bytes }
        return derived
    }
}

func secure(_ bytes: [UInt8]) throws(VaultCryptoError) -> SecureBytes {
    var secret = try SecureBytes(capacity: bytes.count)
    for byte in bytes { try secret.append(byte) }
    return secret
}

func secure(_ text: String) throws -> SecureBytes {
    try secure(Array(text.utf8))
}

/// A fresh directory under the system temporary directory, removed by the caller if it likes.
func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "pwtui-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func readFile(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}

func writeFile(_ path: String, _ bytes: [UInt8]) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

func secretText(_ vault: Vault, _ reference: SecretReference) -> String {
    vault.withSecret(reference) { String(decoding: $0, as: UTF8.self) }
}

/// A clock that advances one millisecond per reading, from a fixed start.
func steppingClock(from start: Int64 = 1_700_000_000_000) -> Clock {
    let now = Atomic<Int64>(start)
    return Clock { Timestamp(millisecondsSince1970: now.add(1, ordering: .relaxed).newValue) }
}

let testPassword = "correct horse"
