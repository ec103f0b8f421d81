import FoundationEssentials
import Passwords
import Platform
import ServiceMatching
import VaultCrypto
import VaultModel

/// `pwtui init`: a new, empty vault at the session's path.
public struct CreateVault {
    public var parameters: KDFParameters
    /// Keep a master password under `MasterPasswordPolicy.minimumBits` (refused otherwise).
    public var allowWeak: Bool

    public init(parameters: KDFParameters, allowWeak: Bool = false) {
        self.parameters = parameters
        self.allowWeak = allowWeak
    }

    public func run(in session: Session) throws {
        let path = session.vaultPath
        guard !FileSystem.exists(path) else { throw VaultError.alreadyExists(path: path) }
        let password = try NewMasterPassword.read(from: session.masterPasswordFD, option: "--master-password-fd",
                                                  example: " (pwtui init --master-password-fd 3 3<file)",
                                                  heading: "Master password", allowWeak: allowWeak, in: session)
        try VaultStorage.createDirectory(for: path)
        let vault = try Vault.create(at: path, password: password, parameters: parameters)
        try session.save(vault)
        session.streams.say("Created \(path) (unlock cost: \(parameters)).")
    }
}
