import Platform
import UnicodeText

/// The last word of a failed command, written at once on the process's stderr: every screen is
/// closed by then. Only the executable's error mapping uses it.
public enum FinalReport {
    public static func write(_ line: String) {
        try? FileDescriptor.standardError.writeAll(PrintableText.message(line) + "\n")
    }
}
