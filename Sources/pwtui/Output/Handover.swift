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
    static func deliver(_ credential: Credential, from vault: Vault, field: CredentialField, clipboardTimeout: Int) throws {
        if isatty(1) == 0 {
            try field.write(credential, from: vault)
            return
        }
        try vault.withSecret(credential.secret) { try Clipboard.copy($0, clearAfter: clipboardTimeout) }
        let clearing = clipboardTimeout > 0 ? "cleared in \(clipboardTimeout) s" : "not cleared (clipboard_timeout = 0)"
        StandardError.say("Copied the password of \(credential.displayTitle) (\(credential.username)) to the clipboard; \(clearing).")
    }
}

/// The clipboard through OSC 52, which terminals (and tmux, and ssh) forward to the system
/// clipboard: the secret is base64-encoded from protected memory into protected memory and
/// written to /dev/tty. A detached shell clears it after the timeout; it carries no secret.
enum Clipboard {
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
        guard seconds > 0 else { return }
        let clear = Process()
        clear.executableURL = URL(fileURLWithPath: "/bin/sh")
        clear.arguments = ["-c", "sleep \(seconds); printf '\\033]52;c;!\\007' > /dev/tty"]
        clear.standardInput = FileHandle.nullDevice
        clear.standardOutput = FileHandle.nullDevice
        clear.standardError = FileHandle.nullDevice
        try? clear.run()
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
