internal import CNcurses
import FoundationEssentials
import Platform
import VaultModel

/// The real terminal, through ncurses (the wide-character `ncursesw`).
///
/// It draws on `/dev/tty`, never on stdout, so `x=$(pwtui pick github.com)` captures only the
/// answer. It opens with `newterm` (not `initscr`, which writes to stdout and exits the process
/// on failure), runs in raw mode so Ctrl-C arrives as a key and the terminal is restored on every
/// path, and uses the alternate screen, so the shell's screen comes back untouched. Call
/// `close()` before writing the result.
public final class NcursesTerminal: Terminal {
    private let input: UnsafeMutablePointer<FILE>
    private let output: UnsafeMutablePointer<FILE>
    private let screen: OpaquePointer
    private let window: UnsafeMutablePointer<WINDOW>
    private var theme: Theme
    private let colorful: Bool
    private var pairs: [String: Int16] = [:]
    private var closed = false
    /// The wall-clock second of the last `.tick`.
    private var lastTick = SystemClock.millisecondsSince1970() / 1000
    private let messages: HeldMessages

    /// SIGTERM or SIGHUP arrived while waiting for a key.
    public struct Terminated: Error, CustomStringConvertible {
        public let signal: Signal
        public var description: String { "terminated by signal \(signal)" }
    }

    public enum OpenError: Error, CustomStringConvertible {
        case noTerminal
        case unusable(String)

        public var description: String {
            switch self {
            case .noTerminal: return "no terminal to draw on (/dev/tty cannot be opened)"
            case .unusable(let term): return "the terminal type '\(term)' is not usable (check TERM)"
            }
        }
    }

    /// `messages`: where stderr lines wait while this terminal is open (see `HeldMessages`).
    /// `environment`: TERM, ESCDELAY and NO_COLOR are read from it.
    public init(theme: Theme, messages: HeldMessages = .shared, environment: Environment = .process) throws(OpenError) {
        pwtui_set_utf8_locale()
        SignalFlag.restoreWindowChange()
        guard let input = fopen("/dev/tty", "r") else { throw .noTerminal }
        guard let output = fopen("/dev/tty", "w") else {
            fclose(input)
            throw .noTerminal
        }
        guard let screen = newterm(nil, output, input) else {
            fclose(input)
            fclose(output)
            throw .unusable(environment["TERM"] ?? "")
        }
        self.input = input
        self.output = output
        self.screen = screen
        self.messages = messages
        messages.hold()
        _ = set_term(screen)
        guard let window = pwtui_stdscr() else {
            endwin()
            delscreen(screen)
            fclose(output)
            fclose(input)
            messages.release()
            throw .unusable("stdscr")
        }
        self.window = window
        if environment["ESCDELAY"] == nil { set_escdelay(25) }
        raw()
        noecho()
        nonl()
        keypad(window, true)
        // After newterm, replacing ncurses' own handlers, which restore the terminal but then
        // exit with status 1 (our "no match"): a flag the key loop checks instead.
        SignalFlag.watchTermination()
        let colorful = Self.usesColor(theme, terminalHasColors: has_colors(), environment: environment)
        if colorful {
            start_color()
            use_default_colors()
        }
        self.colorful = colorful
        self.theme = colorful ? theme : .monochrome
    }

    /// Whether to draw in colour: the theme has colours, the terminal can show them, and
    /// NO_COLOR is not set (no-color.org: set means present and not empty).
    static func usesColor(_ theme: Theme, terminalHasColors: Bool, environment: Environment) -> Bool {
        theme.usesColor && terminalHasColors && !environment.isSet("NO_COLOR")
    }

    public func use(_ theme: Theme) {
        self.theme = colorful ? theme : .monochrome
        pairs = [:]
    }

    deinit {
        close()
    }

    /// Leaves the alternate screen and gives the terminal back as it was.
    public func close() {
        guard !closed else { return }
        closed = true
        endwin()
        delscreen(screen)
        fclose(output)
        fclose(input)
        messages.release()
    }

    public var size: TerminalSize {
        TerminalSize(rows: Int(pwtui_rows(window)), columns: Int(pwtui_columns(window)))
    }

    public func nextEvent() throws -> TerminalEvent {
        // Resizes normally arrive as KEY_RESIZE through ncurses' SIGWINCH handler, but a process
        // started with SIGWINCH blocked on some threads may never see the signal on the thread
        // that reads keys. So the read also times out a few times a second to compare the
        // kernel's idea of the size with ncurses'.
        wtimeout(window, 250)
        while true {
            var character: wint_t = 0
            let status = wget_wch(window, &character)
            if status == ERR {
                if let signal = SignalFlag.received { throw Terminated(signal: signal) }
                guard !FileDescriptor(rawValue: fileno(input)).hasHungUp,
                    let (rows, columns) = FileDescriptor(rawValue: fileno(output)).terminalSize
                else {
                    // The terminal is gone (the window closed, ssh dropped): a read would now
                    // fail at once, forever. Leave as if hung up.
                    throw Terminated(signal: .hangUp)
                }
                if rows > 0, columns > 0, rows != Int(pwtui_rows(window)) || columns != Int(pwtui_columns(window)) {
                    resizeterm(Int32(rows), Int32(columns))
                    return .resize(size)
                }
                let second = SystemClock.millisecondsSince1970() / 1000
                if second != lastTick {
                    lastTick = second
                    return .tick
                }
                continue
            }
            if status == KEY_CODE_YES {
                if Int32(character) == pwtui_key_resize() { return .resize(size) }
                if let key = Self.functionKey(Int32(character)) { return .key(key) }
                continue
            }
            guard status == OK else { continue }
            if character == 0x1A {
                // Without job control there is nothing to suspend to: the key does nothing (and
                // the terminal is not left, even for a moment, while keys may be arriving).
                guard JobControl.isAvailable else { continue }
                suspend()
                return .resize(size)
            }
            if character < 0x20 || character == 0x7F {
                if let key = Key.fromControlByte(UInt8(character)) { return .key(key) }
                continue
            }
            if let scalar = Unicode.Scalar(UInt32(character)) { return .key(.text(scalar)) }
        }
    }

    /// Ctrl-Z, which raw mode delivers as a key: the terminal back to the shell as it was (the
    /// shell's screen, cooked mode, the cursor), the job stopped, and on `fg` the picker's modes
    /// back and the whole screen drawn anew (the shell drew over it; the size may have changed).
    private func suspend() {
        endwin()
        fflush(output)
        // Not stopped (the signal could not be sent): the screen is simply drawn again, and the
        // picker goes on.
        _ = try? JobControl.stop()
        if let (rows, columns) = FileDescriptor(rawValue: fileno(output)).terminalSize, rows > 0, columns > 0 {
            resizeterm(Int32(rows), Int32(columns))
        }
        clearok(window, true)
    }

    public func present(_ canvas: Canvas) throws {
        werase(window)
        for (row, cells) in canvas.cells.enumerated() {
            for (column, cell) in cells.enumerated() {
                guard let character = cell.character else { continue }
                var wide = character.unicodeScalars.prefix(5).map { wchar_t(bitPattern: $0.value) }
                wide.append(0)
                let (attributes, pair) = look(cell.role)
                _ = pwtui_put_cell(window, Int32(row), Int32(column), wide, attributes, Int32(pair))
            }
        }
        if let cursor = canvas.cursor {
            curs_set(1)
            wmove(window, Int32(cursor.row), Int32(cursor.column))
        } else {
            curs_set(0)
        }
        wrefresh(window)
    }

    private func look(_ role: StyleRole) -> (Int32, Int16) {
        let style = theme.style(role)
        var attributes: Int32 = 0
        if style.bold { attributes |= pwtui_attr_bold() }
        if style.reverse { attributes |= pwtui_attr_reverse() }
        if style.underline { attributes |= pwtui_attr_underline() }
        if style.dim { attributes |= pwtui_attr_dim() }
        guard theme.usesColor, style.foreground != .default || style.background != .default else {
            return (attributes, 0)
        }
        let key = style.foreground.rawValue + "/" + style.background.rawValue
        if let pair = pairs[key] { return (attributes, pair) }
        let pair = Int16(pairs.count + 1)
        init_pair(pair, Self.colorNumber(style.foreground), Self.colorNumber(style.background))
        pairs[key] = pair
        return (attributes, pair)
    }

    private static func colorNumber(_ color: Style.Color) -> Int16 {
        switch color {
        case .default: return -1
        case .black: return 0
        case .red: return 1
        case .green: return 2
        case .yellow: return 3
        case .blue: return 4
        case .magenta: return 5
        case .cyan: return 6
        case .white: return 7
        }
    }

    private static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .backTab
        default: return nil
        }
    }
}

extension NcursesTerminal.Terminated: ExitStatusReporting {
    /// Ctrl-C as the user's cancel (130); SIGTERM or SIGHUP as a shell reports it (143).
    public var exitStatus: ExitStatus { signal == .interrupt ? .cancelled : .terminated }
}

extension NcursesTerminal.OpenError: ExitStatusReporting {
    /// No terminal to draw on, or none that works: what needed one cannot ask (75).
    public var exitStatus: ExitStatus { .interactionRequired }
}
