import FoundationEssentials
import Platform
import ServiceMatching
import VaultCrypto

/// The clipboard, and clearing it for real.
///
/// Where the secret goes: under tmux, into a tmux paste buffer of pwtui's own name, loaded with
/// `tmux load-buffer -w`, which also hands it to the outer terminal's clipboard (OSC 52) when
/// tmux's `set-clipboard` allows; elsewhere, OSC 52 straight to the terminal. Plus `wl-copy`
/// (Wayland) or `xclip` / `xsel` (X11) when their display is set and they are installed. The
/// secret goes from protected memory to the terminal and to the tools' stdin with write(2) —
/// base64-encoded into protected memory for OSC 52 — never through argv.
///
/// Clearing: a detached shell (it carries no secret) waits out the timeout, then clears every
/// place the secret was put. Detached, it has no controlling terminal, so `/dev/tty` means
/// nothing to it: the OSC 52 "clear" goes to its standard output, which is the very terminal the
/// copy was written to (pwtui's descriptor of it, held open and passed on). Under tmux an OSC 52 from a program becomes an unnamed paste buffer
/// that outlives any "clear" sequence (tmux ignores empty and invalid OSC 52), which is why pwtui
/// names its own buffer and deletes it; if that buffer is still the newest, the outer clipboard
/// is first overwritten with a space (tmux cannot pass an empty one on). Without tmux, the
/// terminal gets the OSC 52 "clear" sequence, which xterm honours and some terminals ignore:
/// the confirmation says so, as it says when tmux cannot be reached.
enum Clipboard {
    /// A clipboard program: how to give it text on stdin, and how to clear it.
    struct Tool {
        let name: String
        let copyArguments: [String]
        let clearCommand: String
    }

    /// Where the secret went, for the confirmation line.
    struct Copied {
        /// A tmux paste buffer of our own name, deleted after the timeout.
        var tmuxBuffer: String?
        /// OSC 52 went to the terminal itself, whose clearing is not guaranteed.
        var terminalOSC52 = false
        /// Under tmux, but tmux could not be asked: its paste buffer may keep the secret.
        var tmuxUnreachable = false
        /// The clearing process could not be started: nothing will clear the copy.
        var clearingFailed = false

        func clearing(after seconds: Int) -> String {
            guard seconds > 0 else { return "not cleared (clipboard_timeout = 0)" }
            if clearingFailed {
                return "NOT cleared: the process that clears it could not be started; clear the clipboard yourself"
            }
            var text = "cleared in \(seconds) s"
            if tmuxUnreachable {
                text +=
                    "; tmux could not be reached, so a copy may stay in its paste buffers (tmux list-buffers, delete-buffer)"
            } else if terminalOSC52 {
                text += " where the terminal allows (not every terminal clears its clipboard when asked)"
            }
            return text
        }
    }

    static func tools(environment: Environment = .process) -> [(Tool, String)] {
        var candidates: [Tool] = []
        if environment.isSet("WAYLAND_DISPLAY") {
            candidates.append(Tool(name: "wl-copy", copyArguments: [], clearCommand: "wl-copy --clear"))
        }
        if environment.isSet("DISPLAY") {
            candidates.append(
                Tool(
                    name: "xclip", copyArguments: ["-selection", "clipboard"],
                    clearCommand: "xclip -selection clipboard < /dev/null"))
            candidates.append(
                Tool(name: "xsel", copyArguments: ["--clipboard", "--input"], clearCommand: "xsel --clipboard --clear"))
        }
        var found: [(Tool, String)] = []
        for tool in candidates {
            guard let executable = find(tool.name, environment: environment) else { continue }
            found.append((tool, executable))
            if tool.name == "xclip" { break }  // one X11 tool is enough
        }
        return found
    }

    /// The tmux executable when running inside tmux.
    static func tmux(environment: Environment = .process) -> String? {
        guard environment.isSet("TMUX") else { return nil }
        return find("tmux", environment: environment)
    }

    private static func find(_ name: String, environment: Environment) -> String? {
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        return path.map { $0 + "/" + name }.first { FileSystem.isExecutable($0) }
    }

    /// `context`: its environment finds tmux and the clipboard tools; its terminal takes the OSC 52
    /// sequence when tmux does not take the copy.
    static func copy(_ secret: UnsafeRawBufferPointer, clearAfter seconds: Int, in context: CommandContext) throws
        -> Copied
    {
        let environment = context.environment
        var copied = Copied()
        var clears: [String] = []
        let insideTmux = environment.isSet("TMUX")
        if let tmux = tmux(environment: environment) {
            let buffer = "pwtui-" + UUID().uuidString.prefix(8).lowercased()
            if run(tmux, ["load-buffer", "-b", buffer, "-w", "-"], input: secret) {
                copied.tmuxBuffer = buffer
                let (t, b) = (ShellWord.quoted(tmux), ShellWord.quoted(buffer))
                clears.append(
                    "if [ \"$(\(t) list-buffers -F '#{buffer_name}' 2>/dev/null | head -n 1)\" = \(b) ]; then "
                        + "printf ' ' | \(t) load-buffer -b \(b) -w -; fi; \(t) delete-buffer -b \(b)")
            }
        }
        // The terminal the copy went to, kept for the clearing process (see above).
        var terminal: FileDescriptor?
        defer { terminal?.close() }
        if copied.tmuxBuffer == nil {
            terminal = try writeOSC52(secret, streams: context.streams)
            copied.terminalOSC52 = true
            copied.tmuxUnreachable = insideTmux
            clears.append("printf '\\033]52;c;!\\007'")
        }
        let tools = tools(environment: environment)
        for (tool, executable) in tools { _ = run(executable, tool.copyArguments, input: secret) }
        // Only the OSC 52 clear may write to the terminal: the others' output goes nowhere.
        clears += tools.map { "{ \($0.0.clearCommand); } >/dev/null 2>&1" }
        guard seconds > 0 else { return copied }
        // Detached: the clear still happens when the shell pwtui ran in is gone before it is due.
        let output: ChildProcess.Stream = terminal.map { .descriptor($0) } ?? .null
        do {
            _ = try ChildProcess.start(
                "/bin/sh", ["-c", "sleep \(seconds); " + clears.joined(separator: "; ")], output: output, detached: true
            )
        } catch {
            copied.clearingFailed = true
        }
        return copied
    }

    /// OSC 52 to the terminal: the secret base64-encoded in protected memory, one write(2).
    /// Returns the terminal, still open, for the clearing process; the caller closes it.
    private static func writeOSC52(_ secret: UnsafeRawBufferPointer, streams: StandardStreams) throws -> FileDescriptor
    {
        guard let tty = streams.terminal?.openDevice() else {
            throw CommandFailure(.interactionRequired, "no terminal to copy to; pipe the output instead")
        }
        do {
            try write(secret, asOSC52To: tty)
        } catch {
            tty.close()
            throw error
        }
        return tty
    }

    private static func write(_ secret: UnsafeRawBufferPointer, asOSC52To tty: FileDescriptor) throws {
        var sequence = try SecureBytes(capacity: 16 + secret.count * 4 / 3)
        try Array("\u{1B}]52;c;".utf8).withUnsafeBytes { try sequence.append(contentsOf: $0) }
        try appendBase64(secret, to: &sequence)
        try sequence.append(0x07)
        try sequence.withUnsafeBytes { bytes in
            do {
                try tty.writeAll(bytes)
            } catch {
                throw CommandFailure(.ioError, "writing to the terminal failed: \(error)")
            }
        }
    }

    /// Runs a clipboard program with the secret on its stdin, written straight from protected
    /// memory; true when it took it all and exited 0.
    private static func run(_ executable: String, _ arguments: [String], input: UnsafeRawBufferPointer) -> Bool {
        guard let tool = try? ChildProcess.start(executable, arguments, input: .pipe), let pipe = tool.input else {
            return false
        }
        // A tool that stops reading before the end has not taken the secret, whatever it exits with.
        let tookAll = (try? pipe.writeAll(input)) != nil
        pipe.close()
        return tool.wait().succeeded && tookAll
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func appendBase64(_ bytes: UnsafeRawBufferPointer, to output: inout SecureBytes) throws {
        var index = 0
        while index < bytes.count {
            let a = UInt32(bytes[index])
            let b = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let c = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let triple = a << 16 | b << 8 | c
            try output.append(alphabet[Int(triple >> 18 & 63)])
            try output.append(alphabet[Int(triple >> 12 & 63)])
            try output.append(index + 1 < bytes.count ? alphabet[Int(triple >> 6 & 63)] : 0x3D)
            try output.append(index + 2 < bytes.count ? alphabet[Int(triple & 63)] : 0x3D)
            index += 3
        }
    }
}
