import ArgumentParser
import Commands
import VaultModel
import ServiceMatching

/// `pwtui demo`: the picker on a throwaway vault of about fifty realistic credentials, opened
/// for https://github.com/login, its master password shown on the password screen. The vault
/// lives in a fresh temporary directory and is deleted afterwards.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Try the picker on a throwaway vault of sample credentials.",
        discussion: """
            Example: nothing to set up, nothing kept afterwards
              pwtui demo
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "What a pipe receives: password, username, both or json.")
    var output: CredentialField = .password

    func run() throws {
        try DemoVault.run(output: output, in: global.context())
    }
}
