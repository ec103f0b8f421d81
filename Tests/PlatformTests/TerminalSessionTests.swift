// `TerminalSession`: who started the session a terminal controls, from a fake /proc tree (stat,
// status, an exe link): a terminal emulator, tmux, an ssh login and a console login are where a
// person sits; a script's own pty, `script`, an unreadable executable and a vanished maker are not.

import Foundation
import Platform
import Testing

@Suite("who made a terminal's session")
struct TerminalSessionTests {
    final class FakeProc {
        let root = NSTemporaryDirectory() + "pwtui-session-" + UUID().uuidString

        func add(_ pid: Int32, parent: Int32, uid: UInt32 = 1000, command: String, exe: String?) throws {
            let directory = "\(root)/\(pid)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try "\(pid) (\(command)) S \(parent) \(pid) \(pid) 0 -1 0\n".write(
                toFile: directory + "/stat", atomically: false, encoding: .utf8)
            try "Name:\t\(command)\nPPid:\t\(parent)\nUid:\t\(uid)\t\(uid)\t\(uid)\t\(uid)\n".write(
                toFile: directory + "/status", atomically: false, encoding: .utf8)
            if let exe {
                try FileManager.default.createSymbolicLink(atPath: directory + "/exe", withDestinationPath: exe)
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }
    }

    func maker(_ proc: FakeProc, _ session: Int32) -> TerminalSession.Maker {
        TerminalSession.maker(ofSession: session, procRoot: proc.root, user: 1000)
    }

    @Test("a terminal emulator, tmux and screen by their executables: asked there")
    func multiplexersAndEmulators() throws {
        let proc = FakeProc()
        try proc.add(10, parent: 9, command: "bash", exe: "/usr/bin/bash")
        try proc.add(9, parent: 1, command: "tmux: server", exe: "/usr/bin/tmux")
        #expect(maker(proc, 10) == .multiplexer("tmux"))
        try proc.add(20, parent: 19, command: "zsh", exe: "/usr/bin/zsh")
        try proc.add(19, parent: 2, command: "gnome-terminal-", exe: "/usr/libexec/gnome-terminal-server")
        #expect(maker(proc, 20) == .emulator("gnome-terminal-server") && maker(proc, 20).mayAsk)
    }

    @Test("a script's own pty (pty.fork, script, expect), a name it gave itself, an unreadable exe: not asked")
    func programsThatMadeTheirOwn() throws {
        let proc = FakeProc()
        try proc.add(30, parent: 29, command: "ssh-keygen", exe: "/usr/bin/ssh-keygen")
        try proc.add(29, parent: 1, command: "tmux", exe: "/usr/bin/python3.11")
        #expect(maker(proc, 30) == .program("python3.11") && !maker(proc, 30).mayAsk, "comm says tmux, exe python")
        try proc.add(40, parent: 39, command: "sh", exe: "/usr/bin/dash")
        try proc.add(39, parent: 1, command: "script", exe: "/usr/bin/script")
        #expect(!maker(proc, 40).mayAsk)
        // Not dumpable, its parent an ordinary process of the user: proves nothing.
        try proc.add(50, parent: 49, command: "bash", exe: "/usr/bin/bash")
        try proc.add(49, parent: 48, command: "xterm", exe: nil)
        try proc.add(48, parent: 1, command: "bash", exe: "/usr/bin/bash")
        #expect(!maker(proc, 50).mayAsk)
        // Not dumpable under root's cron (not sshd): not a login either.
        try proc.add(60, parent: 59, command: "sh", exe: "/usr/bin/dash")
        try proc.add(59, parent: 58, command: "sshd", exe: nil)
        try proc.add(58, parent: 1, uid: 0, command: "cron", exe: nil)
        #expect(!maker(proc, 60).mayAsk)
        // A leader whose maker is gone (reparented to init), and a session that is gone.
        try proc.add(70, parent: 1, command: "bash", exe: "/usr/bin/bash")
        #expect(!maker(proc, 70).mayAsk)
        #expect(!maker(proc, 999).mayAsk)
    }

    @Test("logins: a console's login and root's sshd, and a user's sshd child (unreadable) under root's sshd")
    func logins() throws {
        let proc = FakeProc()
        try proc.add(80, parent: 79, command: "bash", exe: "/usr/bin/bash")
        try proc.add(79, parent: 1, uid: 0, command: "login", exe: nil)
        #expect(maker(proc, 80) == .login("login"))
        try proc.add(90, parent: 89, command: "bash", exe: "/usr/bin/bash")
        try proc.add(89, parent: 88, command: "sshd-session", exe: nil)
        try proc.add(88, parent: 1, uid: 0, command: "sshd-session", exe: nil)
        #expect(maker(proc, 90) == .login("sshd-session"))
        // Another user's process that is no login (a root daemon's child): not asked.
        try proc.add(100, parent: 99, command: "bash", exe: "/usr/bin/bash")
        try proc.add(99, parent: 1, uid: 0, command: "cron", exe: nil)
        #expect(!maker(proc, 100).mayAsk)
    }
}
