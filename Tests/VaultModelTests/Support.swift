import Foundation
import Platform
import PwtuiTestSupport
import ServiceMatching
import Synchronization
import VaultCrypto
@testable import VaultModel

/// A new vault, not yet saved, alone in a fresh directory of `temporary`, with `testPassword` at
/// the cheapest cost (`VaultEnvironment.cheapKeyDerivation`).
func createVault(in temporary: TemporaryDirectory, environment: VaultEnvironment) throws -> Vault {
    var environment = environment
    environment.writingFloor = .cheapest
    return try Vault.create(
        at: try temporary.freshPath("v.pwtui"), password: try secure(testPassword), parameters: .cheapest,
        environment: environment)
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

/// A credential with no secret behind it, for ranking and filtering, which never read the secret.
func credential(_ title: String, _ services: [String] = ["x.example"], username: String = "", rank: Int32 = 0) throws
    -> Credential
{
    Credential(
        id: UUID(), title: title, services: try services.map { try ServiceIdentifier($0) },
        username: username, secret: SecretReference(offset: 0, count: 0), rank: rank,
        created: Timestamp(millisecondsSince1970: 0), modified: Timestamp(millisecondsSince1970: 0))
}
