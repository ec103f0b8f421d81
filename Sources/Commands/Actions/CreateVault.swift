import FoundationEssentials
import Passwords
import ServiceMatching
import VaultCrypto
import VaultModel

/// `pwtui init`: a new, empty vault at the context's path.
public struct CreateVault {
    public var parameters: KDFParameters
    /// Keep a master password under `MasterPasswordPolicy.minimumBits` (refused otherwise).
    public var allowWeak: Bool

    public init(parameters: KDFParameters, allowWeak: Bool = false) {
        self.parameters = parameters
        self.allowWeak = allowWeak
    }

    public func run(in context: CommandContext) throws {
        let path = context.vaultPath
        guard !FileManager.default.fileExists(atPath: path) else { throw VaultError.alreadyExists(path: path) }
        let password = try NewMasterPassword.read(
            from: context.masterPasswordFD, option: "--master-password-fd",
            example: " (pwtui init --master-password-fd 3 3<file)",
            heading: "Master password", allowWeak: allowWeak, in: context)
        try VaultStorage.createDirectory(for: path)
        let vault = try Vault.create(at: path, password: password, parameters: parameters)
        try context.save(vault)
        context.streams.say("Created \(path) (unlock cost: \(parameters)).")
    }
}
