import ArgumentParser
import Commands

/// `pwtui secret-service`: the freedesktop Secret Service from the agent, in the foreground
/// (`SecretServiceProcess` runs `pwtui-secret-service` in its place; docs/secret-service.md).
struct SecretServiceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secret-service",
        abstract: "Be the desktop keyring: serve org.freedesktop.secrets from the agent.",
        discussion: """
            Serves the Secret Service on the session bus DBUS_SESSION_BUS_ADDRESS names, in the foreground, \
            answering from the unlocked agent (`pwtui unlock` first, or a client's unlock asks for the master \
            password where it runs). libsecret's secret-tool, Python's keyring, Chromium and every Electron app \
            then keep their secrets in the vault as keyring items. Ends on SIGTERM or when the session bus ends; \
            see docs/secret-service.md for the systemd unit and D-Bus activation.

            Example: in a session without a desktop keyring
              pwtui unlock && pwtui secret-service &
              secret-tool store --label 'API token' service example user me
            """)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try SecretServiceProcess.run(in: global.context())
    }
}
