/// Text from a vault made safe to write to a terminal. A title or username can carry control
/// characters (a vault written before they were refused, or a username git took from a crafted
/// URL's `%1b`): written raw, ESC sequences clear the screen, retitle the window or worse. Every
/// writer of such text to a terminal (stderr messages, the prompt, `list`'s table) passes it
/// through here; the screens draw cells, where ncurses shows controls visibly anyway.
public enum PrintableText {
    /// `text` with every control character (C0, DEL, C1) but line feed and tab replaced by U+FFFD.
    public static func forTerminal(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            result.append(isControl(scalar) ? "\u{FFFD}" : scalar)
        }
        return String(result)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\n" && scalar != "\t" && scalar.properties.generalCategory == .control
    }
}
