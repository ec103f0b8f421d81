import ArgumentParser
import Commands

/// `pwtui doctor`: see `Doctor`.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the vault without unlocking it: conflict copies, older copies, permissions, sync.",
        discussion: """
            Each finding comes with the command that deals with it.

            Example: after a sync service left a conflict copy
              pwtui doctor
            """)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Doctor().run(in: global.context())
    }
}
