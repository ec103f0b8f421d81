import ArgumentParser
import Commands
import ServiceMatching

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Create a new, empty vault.",
        discussion: """
            A master password rated under 40 bits is refused (exit 64) unless --allow-weak: see \
            docs/password-strength.md.

            Example: a vault in another place, slower to unlock (and to attack)
              pwtui init --vault ~/sync/work.pwtui --kdf sensitive
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "Unlock cost: interactive (~0.07 s), moderate (~0.5 s) or sensitive (~3 s).")
    var kdf: KDFPreset = .moderate

    @Flag(name: .customLong("allow-weak"), help: "Keep a master password rated under 40 bits (refused otherwise).")
    var allowWeak = false

    func run() throws {
        try CreateVault(parameters: kdf.parameters, allowWeak: allowWeak).run(in: global.context())
    }
}
