/// What the screens need from a terminal: its size, the next key or resize, and a way to show a
/// finished frame. The ncurses backend implements it for real terminals; `GridTerminal` in
/// memory, for tests of every screen and whole flows.
public protocol Terminal: AnyObject {
    var size: TerminalSize { get }
    /// Blocks until a key or a resize arrives.
    func nextEvent() throws -> TerminalEvent
    /// Shows `canvas` as the whole screen.
    func present(_ canvas: Canvas) throws
    /// Draws from now on in `theme` (the configuration screen's live preview).
    func use(_ theme: Theme)
    /// Gives the terminal back as it was; the terminal is not used afterwards.
    func close()
}

public enum TerminalEvent: Equatable, Sendable {
    case key(Key)
    case resize(TerminalSize)
    /// A second of the wall clock turned, with no key pressed: what counts down (a one-time
    /// code's validity) is drawn again. Screens with nothing of the kind ignore it.
    case tick
}

/// A key press, decoded. Printable input arrives one Unicode scalar at a time, so a password
/// typed into the master-password screen goes from here straight into protected memory.
public enum Key: Hashable, Sendable {
    case text(Unicode.Scalar)
    case enter, escape, tab, backTab, backspace, delete
    case up, down, left, right, pageUp, pageDown, home, end
    /// Ctrl plus a letter, as its lowercase letter: `.control("u")` is Ctrl-U.
    case control(Character)

    /// Decodes a byte below 0x20 or 0x7F the way terminals send them.
    public static func fromControlByte(_ byte: UInt8) -> Key? {
        switch byte {
        case 0x0D, 0x0A: return .enter
        case 0x1B: return .escape
        case 0x09: return .tab
        case 0x7F, 0x08: return .backspace
        case 0x01 ... 0x1A: return .control(Character(Unicode.Scalar(byte + 0x60)))
        default: return nil
        }
    }
}
