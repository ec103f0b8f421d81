// docs/design.md#secrets: a process that may hold secrets leaves no core file and prints no crash
// report of its memory. Checked on a live pwtui that is blocked reading its master password.

import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

@Suite("Process hardening")
struct ProcessHardeningTests {
    /// `(comm, state)` from /proc/PID/stat, which every user may read.
    private func commandAndState(_ pid: pid_t) -> (String, Character)? {
        guard let stat = readBytes("/proc/\(pid)/stat").map({ String(decoding: $0, as: UTF8.self) }),
            let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
        else { return nil }
        let state = stat[stat.index(close, offsetBy: 2)...].first ?? "?"
        return (String(stat[stat.index(after: open) ..< close]), state)
    }

    private func signalMask(_ field: String, of pid: pid_t) -> UInt64? {
        guard let status = readBytes("/proc/\(pid)/status").map({ String(decoding: $0, as: UTF8.self) }) else {
            return nil
        }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            return UInt64(line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces), radix: 16)
        }
        return nil
    }

    /// The soft and hard limits of "Max core file size" in /proc/PID/limits.
    private func coreLimits(of pid: pid_t) -> (soft: String, hard: String)? {
        guard let limits = readBytes("/proc/\(pid)/limits").map({ String(decoding: $0, as: UTF8.self) }) else {
            return nil
        }
        for line in limits.split(separator: "\n") where line.hasPrefix("Max core file size") {
            let fields = line.dropFirst("Max core file size".count).split(separator: " ")
            guard fields.count >= 2 else { return nil }
            return (String(fields[0]), String(fields[1]))
        }
        return nil
    }

    @Test("No core dumps, no crash handlers, and SIGSEGV kills silently")
    func hardening() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s3cret"))
        let fifo = sandbox.root + "/never-written"
        try #require(mkfifo(fifo, 0o600) == 0, "mkfifo failed (errno \(errno))")

        // fd 3 is a FIFO nobody writes (opened read-write so it never reaches end of file): pwtui
        // blocks reading the password, with the vault open, hardening done. The core limit is
        // raised first where allowed, so that a pwtui which does not lower it is caught.
        let child = try sandbox.start(
            try Binaries.require(Binaries.pwtui), ["get", "github.com", "--master-password-fd", "3"],
            descriptors: [3: .readWrite(fifo)],
            preamble: "ulimit -S -c unlimited 2>/dev/null || ulimit -S -c \"$(ulimit -H -c)\"",
            detachTerminal: false)
        defer { child.signal(SIGKILL) }
        let pid = child.pid

        // Wait until the exec has happened and pwtui sleeps in its read of fd 3.
        let blocked = poll(timeout: .seconds(10), every: .milliseconds(5)) {
            guard let (command, state) = commandAndState(pid) else { return false }
            return command == "pwtui" && state == "S"
        }
        try #require(
            blocked,
            "pwtui did not block reading fd 3: \(String(describing: commandAndState(pid))); \(child.wait(timeout: .seconds(1)))"
        )
        // It stays blocked: give it a moment to prove it, then look.
        usleep(50_000)
        try #require(child.isRunning, "\(child.wait())")

        let core = try #require(coreLimits(of: pid), "cannot read /proc/\(pid)/limits")
        #expect(core.soft == "0", "core file size limit: \(core)")
        #expect(core.hard == "0", "core file size limit: \(core)")

        let caught = try #require(signalMask("SigCgt", of: pid), "cannot read /proc/\(pid)/status")
        for (name, number) in [
            ("SIGSEGV", SIGSEGV), ("SIGBUS", SIGBUS), ("SIGILL", SIGILL), ("SIGFPE", SIGFPE), ("SIGABRT", SIGABRT),
        ] {
            #expect(
                caught & (UInt64(1) << (number - 1)) == 0,
                "\(name) is caught (SigCgt \(String(caught, radix: 16))): a crash handler could print memory")
        }

        kill(pid, SIGSEGV)
        let result = child.wait(timeout: .seconds(10))
        #expect(result.signaled && result.status == SIGSEGV, "dies of the signal, not through a handler: \(result)")
        #expect(result.stdout.isEmpty)
        for marker in ["Crash", "crash", "Backtrac", "Thread", "💣", "Registers", "0x"] {
            #expect(!result.err.contains(marker), "stderr has crash-report text \(marker): \(result)")
        }
        #expect(result.stderr.isEmpty, "\(result)")
    }
}
