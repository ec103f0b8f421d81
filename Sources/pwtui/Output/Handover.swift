#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TUI
import VaultCrypto
import VaultModel

/// AutoFill's "complete request": the chosen credential goes to whoever asked. A pipe gets the
/// field on stdout; a person at a terminal gets the password on the clipboard, cleared again
/// after a while, and a one-line confirmation on stderr. The secret never reaches the screen.
enum Handover {
    /// What goes out: the requested field to a pipe; the password when stdout is a terminal
    /// (it goes to the clipboard).
    static func field(for requested: CredentialField) -> CredentialField {
        isatty(1) == 0 ? requested : .password
    }

    static func deliver(_ credential: Credential, from vault: Vault, field: CredentialField, clipboardTimeout: Int) throws {
        let rendered = try Self.field(for: field).render(credential, from: vault)
        try deliver(rendered, of: "\(credential.displayTitle) (\(credential.username))", clipboardTimeout: clipboardTimeout)
    }

    /// `rendered`: the field `field(for:)` chose, as `CredentialField.render` makes it (the agent
    /// sends it so); `description` names the credential in the confirmation.
    static func deliver(_ rendered: borrowing SecureBytes, of description: String, clipboardTimeout: Int) throws {
        if isatty(1) == 0 {
            try StandardOutput.write(rendered)
            return
        }
        try rendered.withUnsafeBytes { try Clipboard.copy(CredentialField.value(ofRendered: $0), clearAfter: clipboardTimeout) }
        let clearing = clipboardTimeout > 0 ? "cleared in \(clipboardTimeout) s" : "not cleared (clipboard_timeout = 0)"
        StandardError.say("Copied the password of \(description) to the clipboard; \(clearing).")
    }
}

/// The clipboard: OSC 52, which terminals (and tmux, and ssh) forward to the system clipboard,
/// plus `wl-copy` (Wayland) or `xclip` / `xsel` (X11) when their display is set and they are
/// installed. The secret goes from protected memory to the terminal and to the tool's stdin with
/// write(2): base64-encoded into protected memory for OSC 52, never through argv. A detached shell
/// clears every clipboard it was put in after the timeout; it carries no secret.
enum Clipboard {
    /// A clipboard program: how to give it text on stdin, and how to clear it.
    struct Tool {
        let name: String
        let copyArguments: [String]
        let clearCommand: String
    }

    static func tools(environment: [String: String] = ProcessInfo.processInfo.environment) -> [(Tool, String)] {
        var candidates: [Tool] = []
        if environment["WAYLAND_DISPLAY"].map({ !$0.isEmpty }) == true {
            candidates.append(Tool(name: "wl-copy", copyArguments: [], clearCommand: "wl-copy --clear"))
        }
        if environment["DISPLAY"].map({ !$0.isEmpty }) == true {
            candidates.append(Tool(name: "xclip", copyArguments: ["-selection", "clipboard"], clearCommand: "xclip -selection clipboard < /dev/null"))
            candidates.append(Tool(name: "xsel", copyArguments: ["--clipboard", "--input"], clearCommand: "xsel --clipboard --clear"))
        }
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        var found: [(Tool, String)] = []
        for tool in candidates {
            guard let executable = path.map({ $0 + "/" + tool.name }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { continue }
            found.append((tool, executable))
            if tool.name == "xclip" { break }  // one X11 tool is enough
        }
        return found
    }

    static func copy(_ secret: UnsafeRawBufferPointer, clearAfter seconds: Int) throws {
        let tty = open("/dev/tty", O_WRONLY | O_CLOEXEC)
        guard tty >= 0 else { throw CommandFailure(.interactionRequired, "no terminal to copy to; pipe the output instead") }
        defer { close(tty) }
        var sequence = try SecureBytes(capacity: 16 + secret.count * 4 / 3)
        try Array("\u{1B}]52;c;".utf8).withUnsafeBytes { try sequence.append(contentsOf: $0) }
        try appendBase64(secret, to: &sequence)
        try sequence.append(0x07)
        try sequence.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, write(tty, base, bytes.count) == bytes.count else {
                throw CommandFailure(.ioError, "writing to the terminal failed")
            }
        }
        let tools = tools()
        for (tool, executable) in tools { try run(executable, tool.copyArguments, input: secret) }
        guard seconds > 0 else { return }
        let clears = ["printf '\\033]52;c;!\\007' > /dev/tty"] + tools.map(\.0.clearCommand)
        let clear = Process()
        clear.executableURL = URL(fileURLWithPath: "/bin/sh")
        clear.arguments = ["-c", "sleep \(seconds); " + clears.joined(separator: "; ")]
        clear.standardInput = FileHandle.nullDevice
        clear.standardOutput = FileHandle.nullDevice
        clear.standardError = FileHandle.nullDevice
        try? clear.run()
    }

    /// Runs a clipboard tool with the secret on its stdin, written straight from protected memory.
    private static func run(_ executable: String, _ arguments: [String], input: UnsafeRawBufferPointer) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardInput = pipe
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return  // the terminal's clipboard (OSC 52) still has it
        }
        let fd = pipe.fileHandleForWriting.fileDescriptor
        var offset = 0
        while offset < input.count, let base = input.baseAddress {
            let written = write(fd, base + offset, input.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { break }
            offset += written
        }
        try? pipe.fileHandleForWriting.close()
        process.waitUntilExit()
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
