/// The terminal a process runs on, as /proc/PID/stat tells it: where the agent asks the user to
/// approve a signature that process requested (`ssh` in a shell's terminal), since the agent
/// itself, started in the background, has none.
///
/// Field 7 of /proc/PID/stat, `tty_nr`, is the controlling terminal's device number (0 for
/// none), encoded as the kernel's `new_encode_dev`: the major number in bits 8–19, the minor's
/// low 8 bits in 0–7 and its high bits from 20 up. Pseudo-terminals (`/dev/pts/N`) have majors
/// 136–143, N being the minor (plus 256 per major past 136, for the old split); the virtual
/// consoles `/dev/ttyN` have major 4 and minors 1–63. Anything else (a serial line) is not
/// named: nobody is asked there. The path is only a name: the caller opens it and checks that
/// it is a terminal owned by its own user before writing anything to it.
public enum ProcessTerminal {
    /// `pid`'s session (field 6) and the path of its controlling terminal (nil when it has none,
    /// or one pwtui does not name); nil when the process is gone. `procRoot`: a test's fake tree,
    /// or /proc.
    public static func of(_ pid: Int32, procRoot: String = "/proc") -> (session: Int32, terminal: String?)? {
        guard let bytes = try? RegularFile.readIfPresent("\(procRoot)/\(pid)/stat", limit: 4096, prefix: true)
        else { return nil }
        // The command name (field 2) is in parentheses and may itself hold spaces and ')': the
        // fields that follow start after the last ')'.
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 4, let session = Int32(String(decoding: fields[3], as: UTF8.self)),
            let number = Int64(String(decoding: fields[4], as: UTF8.self))
        else { return nil }
        return (session, path(ofDevice: number))
    }

    /// The path of the terminal with device number `number` as /proc encodes it (see above).
    public static func path(ofDevice number: Int64) -> String? {
        guard number > 0 else { return nil }
        let major = (number >> 8) & 0xFFF
        let minor = (number & 0xFF) | ((number >> 12) & 0xFFF00)
        switch major {
        case 136 ... 143: return "/dev/pts/\((major - 136) * 256 + minor)"
        case 4 where minor >= 1 && minor < 64: return "/dev/tty\(minor)"
        default: return nil
        }
    }
}
