import ArgumentParser
import Commands
import Platform
import SecretServiceAgent
import VaultModel

/// `pwtui-secret-service`: the Secret Service on the session bus, answered by the pwtui agent
/// (what `pwtui secret-service` runs; a systemd unit or D-Bus activation may run it directly).
/// Parsing and wiring only: `SecretServiceRunner` does the work.
struct SecretServiceDaemon: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pwtui-secret-service",
        abstract: "Serve the freedesktop Secret Service (org.freedesktop.secrets) from the pwtui agent.",
        discussion: "Runs in the foreground on the bus DBUS_SESSION_BUS_ADDRESS names; see docs/secret-service.md.")

    @Option(name: .long, help: ArgumentHelp("The vault file (default: as pwtui chooses it).", valueName: "path"))
    var vault: String?

    @Option(name: .long, help: ArgumentHelp("The settings file.", valueName: "path"))
    var config: String?

    func run() throws {
        let (vault, config) = (vault, config)
        try SecretServiceRunner.run { CommandContext(vault: vault, config: config) }
    }
}

// No core files and no crash backtrace, but dumpable: the agent believes this process's naming of
// bus clients only once it has read /proc/PID/exe and found this program beside its own
// (`AgentKeyring`); a process that is not dumpable hides that link from its user's other processes.
ProcessHardening.applyKeepingExecutableVisible()
do {
    var command = try SecretServiceDaemon.parseAsRoot()
    try command.run()
    CurrentProcess.exit(0)
} catch let error as any ExitStatusReporting {
    FinalReport.write("pwtui-secret-service: \(error)")
    CurrentProcess.exit(ExitStatus(error).rawValue)
} catch {
    SecretServiceDaemon.exit(withError: error)
}
