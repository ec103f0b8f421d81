// `pwtui passwd` killed around its rename: the next unlock says which master password is in
// force. The kill is made deterministic with strace: the rename that replaces the vault is held
// (after it took effect, or before it starts) long enough for the test to SIGKILL the process.

import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

@Suite("Interrupted passwd")
struct InterruptedPasswdTests {
    static let newPassword = "a whole new password"

    /// The vault's salt (header bytes 50..<66).
    func salt(_ sandbox: Sandbox) -> [UInt8] {
        Array((readBytes(sandbox.vault) ?? []).dropFirst(50).prefix(16))
    }

    /// Runs passwd under strace, holding the first rename for 20 s on entry or exit, and kills it
    /// there: after the rename took effect (`afterRename`) or before it began.
    func killPasswd(_ sandbox: Sandbox, afterRename: Bool) throws {
        let before = salt(sandbox)
        let hold = afterRename ? "delay_exit" : "delay_enter"
        let marker = sandbox.vaultDirectory + "/." + (sandbox.vault as NSString).lastPathComponent + ".passwd-pending"
        let passwd = try sandbox.start(
            "/usr/bin/strace",
            [
                "-f", "-qq", "-o", "/dev/null", "-e", "trace=rename,renameat,renameat2",
                "-e", "inject=rename,renameat,renameat2:\(hold)=20000000:when=1",
                try Binaries.require(Binaries.pwtui), "passwd", "--master-password-fd", "3", "--new-master-password-fd",
                "4",
            ], descriptors: [3: .text(sandbox.password), 4: .text(Self.newPassword)])
        let reached = poll(timeout: .seconds(30), every: .milliseconds(20)) {
            // Before the rename, anywhere after the note is written is the case to test.
            afterRename ? salt(sandbox) != before : FileManager.default.fileExists(atPath: marker)
        }
        try #require(reached, "passwd did not get that far")
        passwd.signal(SIGKILL)
        let result = passwd.wait(timeout: .seconds(10))
        #expect(!result.err.contains("Master password changed"), "\(result)")
        #expect(afterRename ? salt(sandbox) != before : salt(sandbox) == before)
    }

    @Test("killed after the rename: the next unlock says the new master password is in force, until one works")
    func killedAfterRename() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s1"))
        try killPasswd(sandbox, afterRename: true)

        let old = try sandbox.pwtui(["get", "github.com", "--field", "username"])
        #expect(old.exitCode == 77, "\(old)")
        #expect(old.err.contains("after it completed") && old.err.contains("NEW master password"), "\(old)")
        let new = try sandbox.pwtui(["get", "github.com", "--field", "username"], password: .text(Self.newPassword))
        #expect(new.exitCode == 0 && new.out.contains("alice"), "\(new)")
        #expect(new.err.contains("NEW master password"), "said once more, at the unlock that worked: \(new)")
        let later = try sandbox.pwtui(["get", "github.com", "--field", "username"], password: .text(Self.newPassword))
        #expect(
            later.exitCode == 0 && !later.err.contains("interrupted"),
            "said until the vault opened, then no more: \(later)")
    }

    @Test("killed before the rename: the next unlock says the old master password still works")
    func killedBeforeRename() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s1"))
        try killPasswd(sandbox, afterRename: false)

        let old = try sandbox.pwtui(["get", "github.com", "--field", "username"])
        #expect(old.exitCode == 0 && old.out.contains("alice"), "\(old)")
        #expect(old.err.contains("before it changed anything"), "\(old)")
        let later = try sandbox.pwtui(["get", "github.com", "--field", "username"])
        #expect(later.exitCode == 0 && !later.err.contains("interrupted"), "\(later)")
    }

    @Test("a passwd that finishes leaves no note behind")
    func completedPasswd() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s1"))
        let passwd = try sandbox.pwtui(
            ["passwd", "--new-master-password-fd", "4"], descriptors: [4: .text(Self.newPassword)])
        #expect(passwd.exitCode == 0, "\(passwd)")
        let list = try sandbox.pwtui(["get", "github.com", "--field", "username"], password: .text(Self.newPassword))
        #expect(list.exitCode == 0 && !list.err.contains("interrupted"), "\(list)")
        #expect(
            try !FileManager.default.contentsOfDirectory(atPath: sandbox.vaultDirectory).contains {
                $0.hasSuffix(".passwd-pending")
            })
    }

    @Test("the picker's password screen says which master password opens the vault, until one does")
    func pickerSaysIt() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s1"))
        try killPasswd(sandbox, afterRename: true)
        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        try tmux.enter("'\(try Binaries.require(Binaries.pwtui))' pick github.com")
        let screen = try tmux.waitForPane { $0.contains("Master password") }
        #expect(screen?.contains("use the NEW master password") == true, "\(tmux.captures.last ?? "")")
        try tmux.enter(Self.newPassword)
        #expect(
            try tmux.waitForPane { $0.contains("alice") } != nil,
            "the new password opened it: \(tmux.captures.last ?? "")")
        try tmux.press("Escape")
        let marker = sandbox.vaultDirectory + "/." + (sandbox.vault as NSString).lastPathComponent + ".passwd-pending"
        #expect(
            poll(timeout: .seconds(5)) { !FileManager.default.fileExists(atPath: marker) },
            "said until the vault opened")
    }
}
