import VaultModel

/// Why the Secret Service could not serve at all (the bus, the name): what to do in each case.
public enum SecretServiceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No `DBUS_SESSION_BUS_ADDRESS`.
    case noSessionBus
    /// The bus at the address could not be reached (errno from sd-bus).
    case cannotConnect(address: String, errno: Int32)
    /// Another program owns `org.freedesktop.secrets` (gnome-keyring, KeePassXC).
    case nameTaken(String)
    /// sd-bus failed while serving (errno).
    case bus(String, errno: Int32)

    public var description: String {
        switch self {
        case .noSessionBus:
            "no session bus: DBUS_SESSION_BUS_ADDRESS is not set and there is no $XDG_RUNTIME_DIR/bus (run under a desktop session, `dbus-run-session`, or a systemd user unit)"
        case .cannotConnect(let address, let errno):
            "cannot connect to the session bus at \(address) (errno \(errno)); is its dbus-daemon running?"
        case .nameTaken(let name):
            "another program already serves \(name) (gnome-keyring or KeePassXC?); stop it first"
        case .bus(let what, let errno):
            "the session bus failed: \(what) (errno \(errno))"
        }
    }
}

extension SecretServiceError: ExitStatusReporting {
    /// No bus, or its name taken: nothing pwtui can do alone, the person must start or stop
    /// something (75); the bus failing under it is an I/O failure (74).
    public var exitStatus: ExitStatus {
        switch self {
        case .noSessionBus, .nameTaken: .interactionRequired
        case .cannotConnect, .bus: .ioError
        }
    }
}
