import ArgumentParser
import PwtuiKit
import ServiceMatching

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Create a new, empty vault.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "Unlock cost: interactive (~0.07 s), moderate (~0.5 s) or sensitive (~3 s).")
    var kdf: KDFPreset = .moderate

    func run() throws {
        try CreateVault(parameters: kdf.parameters).run(in: global.session())
    }
}
