import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// A real sshd (Debian's openssh-server) on 127.0.0.1 for the tests that need one (askpass's
/// passwords and passphrases, the agent's keys): a free port, the host key and `authorized_keys`
/// in `directory`, no PAM. Needs root (sshd's privilege separation); the caller kills it.
enum TestSSHServer {
    struct NotStarted: Error, CustomStringConvertible {
        let description: String
    }

    /// `directory` must hold `authorized_keys`; its host key is made here when it has none.
    /// `passwords`: password logins too, else keys only. `rootLogin`: sshd's PermitRootLogin.
    /// `settings`: more sshd_config lines.
    static func start(
        _ sandbox: Sandbox, directory keys: String, passwords: Bool, rootLogin: String, settings: String = ""
    ) throws -> (
        port: String, process: Child
    ) {
        if !FileManager.default.fileExists(atPath: keys + "/host") {
            let host = try sandbox.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", keys + "/host"])
            guard host.exitCode == 0 else { throw NotStarted(description: "no host key: \(host)") }
        }
        // sshd reads the authorized keys as the user: the way there must be open to it.
        for path in [sandbox.root, keys] { _ = chmod(path, 0o755) }
        _ = chmod(keys + "/authorized_keys", 0o644)
        let port = try ContainerRegistryTests.freePort(sandbox)
        try """
        ListenAddress 127.0.0.1
        Port \(port)
        HostKey \(keys)/host
        PidFile none
        AuthorizedKeysFile \(keys)/authorized_keys
        StrictModes no
        UsePAM no
        PubkeyAuthentication yes
        PasswordAuthentication \(passwords ? "yes" : "no")
        KbdInteractiveAuthentication no
        PermitRootLogin \(rootLogin)
        \(settings)
        """.write(toFile: keys + "/sshd_config", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
        let sshd = try sandbox.start("/usr/sbin/sshd", ["-D", "-e", "-f", keys + "/sshd_config"])
        let up = poll(timeout: .seconds(10), every: .milliseconds(50)) {
            ContainerRegistryTests.listening(sandbox, port)
        }
        guard up else {
            sshd.signal(SIGKILL)
            throw NotStarted(description: "sshd did not start: \(sshd.wait(timeout: .seconds(1)))")
        }
        return (port, sshd)
    }
}
