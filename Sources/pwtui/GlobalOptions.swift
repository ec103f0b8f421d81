import ArgumentParser
import Foundation
import TUI
import VaultCrypto
import VaultModel

/// Options every command takes: which vault, and where the master password comes from.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The vault file (default: $PWTUI_VAULT, else $XDG_DATA_HOME/pwtui/vault.pwtui).", valueName: "path"))
    var vault: String?

    @Option(name: .customLong("master-password-fd"),
            help: ArgumentHelp("Read the master password's first line from this file descriptor (for scripts).", valueName: "n"))
    var masterPasswordFD: Int32?

    /// The vault path: --vault, then PWTUI_VAULT, then the XDG data directory.
    var vaultPath: String {
        let environment = ProcessInfo.processInfo.environment
        if let vault, !vault.isEmpty { return vault }
        if let fromEnvironment = environment["PWTUI_VAULT"], !fromEnvironment.isEmpty { return fromEnvironment }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? ".") + "/.local/share"
        return dataHome + "/pwtui/vault.pwtui"
    }

    /// The master password, from the descriptor if one was given, else from the terminal.
    func masterPassword(prompt: String = "Master password: ") throws -> SecureBytes {
        if let masterPasswordFD {
            return try SecretReader.firstLine(of: masterPasswordFD, what: "--master-password-fd")
        }
        guard let terminal = TerminalPrompt() else {
            throw CommandFailure(.interactionRequired,
                                 "the vault is locked and there is no terminal to ask for the master password; pass --master-password-fd N")
        }
        return try terminal.readSecret(prompt: prompt)
    }

    /// Opens the vault with the master password.
    func openVault() throws -> Vault {
        let path = vaultPath
        // A missing vault is reported before asking for a password nobody can use.
        guard FileManager.default.fileExists(atPath: path) else { throw VaultError.notFound(path: path) }
        let password = try masterPassword()
        return try Vault.open(at: path, password: password)
    }
}
