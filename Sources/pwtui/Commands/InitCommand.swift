import ArgumentParser
import Foundation
import VaultCrypto
import VaultModel

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Create a new, empty vault.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "Unlock cost: interactive (~0.07 s), moderate (~0.5 s) or sensitive (~3 s).")
    var kdf: KDFPreset = .moderate

    func run() throws {
        let path = global.vaultPath
        guard !FileManager.default.fileExists(atPath: path) else { throw VaultError.alreadyExists(path: path) }
        let password = try global.masterPasswordFD.map { try SecretReader.firstLine(of: $0, what: "--master-password-fd") }
            ?? SecretReader.typedTwice(label: "master password",
                                      otherwise: "pass it on a descriptor: --master-password-fd N (pwtui init --master-password-fd 3 3<file)")
        guard !password.isEmpty else { throw CommandFailure(.usage, "the master password must not be empty") }
        StandardError.say("Master password strength: " + password.withUnsafeBytes { PasswordStrength(utf8: $0) }.summary)
        try VaultStorage.createDirectory(for: path)
        let vault = try Vault.create(at: path, password: password, parameters: kdf.parameters)
        try global.save(vault)
        StandardError.say("Created \(path) (unlock cost: \(kdf.parameters)).")
    }
}
