import VaultCrypto
import VaultModel

extension VaultEnvironment {
    /// Argon2id at its own minimum (1 pass, 8 KiB) for the vaults tests make: opening one costs
    /// microseconds instead of a 64 MiB derivation, in process and in the pwtui binary alike (it
    /// opens any file down to that minimum). Tests of the cost itself use the real floor.
    package static var cheapKeyDerivation: VaultEnvironment {
        var environment = VaultEnvironment()
        environment.writingFloor = KDFParameters.cheapest
        return environment
    }
}

extension KDFParameters {
    /// Argon2id's own minimum: what `VaultEnvironment.cheapKeyDerivation` writes.
    package static var cheapest: KDFParameters { Argon2id.minimumParameters }
}

extension Vault {
    /// A new, empty vault that `save()` will create at `path` (its directory made now), with the
    /// cheapest key derivation (see above).
    package static func createCheaply(at path: String, password: String) throws -> Vault {
        try VaultStorage.createDirectory(for: path)
        return try Vault.create(
            at: path, password: try SecureBytes(copying: password.utf8), parameters: .cheapest,
            environment: .cheapKeyDerivation)
    }
}
