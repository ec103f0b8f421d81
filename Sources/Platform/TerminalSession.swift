/// Who made a terminal session: where the agent may ask its user to approve a signature.
///
/// A program of the user that has no terminal can make one (`pty.fork()`, `script`, `expect`):
/// it starts a session on a new pseudo-terminal, runs the requester there, reads the question on
/// the master side and writes `y`. So a terminal counts only when the session it controls was
/// started by something a person sits at: the process that started the session (the parent of
/// its leader, `maker`) must be
///
/// - a login: another user's `sshd`, `sshd-session` or `login` (a virtual console, an ssh session
///   of a user other than root), or — for a user's own ssh session, whose sshd child is that user's
///   and hides its executable — a process of this user whose parent is another user's `sshd` or
///   `sshd-session` (a root process's command name is root's program's, not this user's to set);
/// - a terminal multiplexer, by its executable: `tmux`, `screen` (their panes are where the user
///   is; a program of the user that drives them can type into any pane anyway);
/// - a terminal emulator, by its executable's file name (`emulators`);
/// - or, for root's own logins, `sshd`, `sshd-session` and `login` by executable.
///
/// Anything else — a script, python, `script`, `expect`, a process whose executable cannot be
/// read, a leader whose maker is gone — made the terminal for itself: nobody is asked there.
/// Names are executables' (/proc/PID/exe, which exec(2) sets), never argv[0] or the command name
/// a process gives itself.
public enum TerminalSession {
    /// What started a session, and whether a question may be asked on its terminal.
    public enum Maker: Equatable, Sendable {
        case login(String)
        case multiplexer(String)
        case emulator(String)
        /// Anything else, named for the refusal: a session the requester's own tree made.
        case program(String)

        public var mayAsk: Bool {
            if case .program = self { return false }
            return true
        }
    }

    public static let logins: Set<String> = ["sshd", "sshd-session", "login"]
    public static let multiplexers: Set<String> = ["tmux", "screen"]
    /// Terminal emulators, by their executables' file names (the process that holds the master
    /// side). One that runs in an interpreter (terminator, guake: python3) cannot be told from a
    /// script and is not here: run tmux in it.
    public static let emulators: Set<String> = [
        "xterm", "uxterm", "gnome-terminal-server", "kgx", "ptyxis-agent", "konsole", "yakuake", "alacritty",
        "kitty", "foot", "wezterm-gui", "st", "urxvt", "rxvt", "urxvtd", "xfce4-terminal", "mate-terminal",
        "lxterminal", "qterminal", "terminology", "tilix", "sakura", "ghostty", "contour", "rio", "Eterm",
        "cool-retro-term", "deepin-terminal", "io.elementary.terminal",
    ]

    /// The maker of session `session` (its leader's pid), read from `procRoot`; `user`: ours.
    public static func maker(ofSession session: Int32, procRoot: String = "/proc", user: UInt32 = CurrentProcess.userID)
        -> Maker
    {
        guard let leader = status(of: session, procRoot: procRoot), let makerID = leader.parent, makerID > 1,
            let maker = status(of: makerID, procRoot: procRoot)
        else { return .program("a session whose maker is gone") }
        let executable = (try? FileSystem.linkDestination("\(procRoot)/\(makerID)/exe")).map(ProcessChain.fileName)
        if maker.uid != user {
            return logins.contains(maker.command) ? .login(maker.command) : .program(maker.command + "?")
        }
        guard let executable else {
            // This user's sshd child hides its executable; its parent is root's sshd.
            if let grandparent = maker.parent.flatMap({ status(of: $0, procRoot: procRoot) }),
                grandparent.uid != user, ["sshd", "sshd-session"].contains(grandparent.command)
            {
                return .login(grandparent.command)
            }
            return .program(maker.command + "?")
        }
        if multiplexers.contains(executable) { return .multiplexer(executable) }
        if emulators.contains(executable) { return .emulator(executable) }
        if logins.contains(executable) { return .login(executable) }
        return .program(executable)
    }

    /// /proc/PID/stat's command (field 2), parent (4) and /proc/PID/status's real uid.
    private static func status(of pid: Int32, procRoot: String) -> (command: String, parent: Int32?, uid: UInt32?)? {
        guard let stat = try? RegularFile.readIfPresent("\(procRoot)/\(pid)/stat", limit: 4096, prefix: true),
            let open = stat.firstIndex(of: UInt8(ascii: "(")), let close = stat.lastIndex(of: UInt8(ascii: ")")),
            open < close
        else { return nil }
        let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
        let parent = fields.count > 1 ? Int32(String(decoding: fields[1], as: UTF8.self)) : nil
        var uid: UInt32?
        if let status = try? RegularFile.readIfPresent("\(procRoot)/\(pid)/status", limit: 64 * 1024, prefix: true) {
            for line in String(decoding: status, as: UTF8.self).split(separator: "\n") where line.hasPrefix("Uid:") {
                uid = line.dropFirst(4).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { UInt32($0) }
            }
        }
        return (String(decoding: stat[(open + 1) ..< close], as: UTF8.self), parent, uid)
    }
}
