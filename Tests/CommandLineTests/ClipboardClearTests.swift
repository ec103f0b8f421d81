import Foundation
import Testing

/// The clipboard's clearing outside tmux: the detached process that clears it has no controlling
/// terminal, so it once wrote its OSC 52 "clear" to `/dev/tty`, which failed, and the clipboard
/// was never cleared. It now writes to the terminal the copy went to, handed to it open.
@Suite("clearing the clipboard")
struct ClipboardClearTests {
    @Test("outside tmux, the OSC 52 clear reaches the terminal after clipboard_timeout")
    func clearReachesTheTerminal() throws {
        let sandbox = try Sandbox.withVault(Login(["a.example"], username: "a", secret: "a-pw"))
        let config = sandbox.root + "/xdg/config/pwtui"
        try FileManager.default.createDirectory(
            atPath: config, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try "clipboard_timeout = 1\n".write(toFile: config + "/config.toml", atomically: true, encoding: .utf8)
        #expect(chmod(config + "/config.toml", 0o600) == 0)
        let pwtui = try Binaries.require(Binaries.pwtui)
        let passwordFile = sandbox.scratch + "/mp"
        try (sandbox.password + "\n").write(toFile: passwordFile, atomically: true, encoding: .utf8)
        // script(1): a terminal for pwtui, kept open after it exits until the clear is due.
        let result = try sandbox.run(
            "/usr/bin/script",
            [
                "-qec", "'\(pwtui)' copy a.example --master-password-fd 3 3<'\(passwordFile)'; echo RC=$?; sleep 4",
                "/dev/null",
            ],
            environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "TMUX": ""])
        #expect(result.out.contains("RC=0"), "\(result)")
        #expect(
            result.out.contains("\u{1B}]52;c;" + Data("a-pw".utf8).base64EncodedString() + "\u{07}"),
            "copied: \(result)")
        let cleared = result.out.range(of: "\u{1B}]52;c;!\u{07}")
        #expect(cleared != nil, "the clear reached the terminal: \(result.out.debugDescription)")
        if let cleared, let done = result.out.range(of: "RC=0") {
            #expect(cleared.lowerBound > done.lowerBound, "after pwtui exited")
        }
    }
}
