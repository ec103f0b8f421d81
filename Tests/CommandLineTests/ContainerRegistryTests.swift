// docker-credential-pwtui with real podman: Debian's docker-registry started on 127.0.0.1 with
// htpasswd auth, `podman login` and `podman logout` through the helper (podman's `credHelpers`
// in a private auth file), everything podman reads pointed into the sandbox.

import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

@Suite("container registries: podman through docker-credential-pwtui")
struct ContainerRegistryTests {
    /// A port nobody listens on now (the kernel's choice, released at once).
    static func freePort(_ sandbox: Sandbox) throws -> String {
        let found = try sandbox.run(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])",
            ])
        try #require(found.exitCode == 0, "\(found)")
        return found.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether something accepts connections on 127.0.0.1:`port`.
    static func listening(_ sandbox: Sandbox, _ port: String) -> Bool {
        (try? sandbox.run("/bin/bash", ["-c", "exec 3<>/dev/tcp/127.0.0.1/\(port)"]).exitCode) == 0
    }

    /// docker-registry on a free port, with one account (`user`, `password`) in an htpasswd file
    /// (bcrypt, as the registry requires); the caller stops it.
    static func registry(_ sandbox: Sandbox, user: String, password: String) throws -> (port: String, child: Child) {
        let directory = sandbox.root + "/registry"
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        let htpasswd = try sandbox.run(
            "/usr/bin/htpasswd", ["-iBc", directory + "/htpasswd", user], stdin: .text(password))
        try #require(htpasswd.exitCode == 0, "\(htpasswd)")
        let port = try freePort(sandbox)
        try """
        version: 0.1
        log:
          level: error
        storage:
          filesystem:
            rootdirectory: \(directory)/data
        http:
          addr: 127.0.0.1:\(port)
        auth:
          htpasswd:
            realm: pwtui-test
            path: \(directory)/htpasswd
        """.write(toFile: directory + "/config.yml", atomically: true, encoding: .utf8)
        let child = try sandbox.start("/usr/bin/docker-registry", ["serve", directory + "/config.yml"])
        let up = poll(timeout: .seconds(15), every: .milliseconds(50)) { listening(sandbox, port) }
        try #require(up, "the registry did not start: \(child.isRunning ? "running" : "\(child.wait())")")
        return (port, child)
    }

    @Test("podman login lands in the vault, not in auth.json; a wrong password stores nothing; logout erases")
    func podmanLoginAndLogout() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "octocat", secret: "web-pass"))
        let (port, registry) = try Self.registry(sandbox, user: "ci", password: "reg-secret")
        defer { registry.signal(SIGKILL) }
        try sandbox.startUnlockedAgent()
        defer { sandbox.stopAgent() }

        // As `make install` leaves it: docker-credential-pwtui on PATH, a link to pwtui.
        let bin = sandbox.root + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: bin + "/docker-credential-pwtui", withDestinationPath: try Binaries.require(Binaries.pwtui))
        // podman's own files, all in the sandbox: the auth file names the helper for this
        // registry; storage and registries configuration of its own (plain HTTP allowed here).
        let containers = sandbox.root + "/containers"
        try FileManager.default.createDirectory(atPath: containers, withIntermediateDirectories: true)
        let authFile = containers + "/auth.json"
        try #"{"credHelpers": {"127.0.0.1:\#(port)": "pwtui"}}"#.write(
            toFile: authFile, atomically: true, encoding: .utf8)
        try """
        [storage]
        driver = "vfs"
        graphroot = "\(containers)/storage"
        runroot = "\(containers)/run"
        """.write(toFile: containers + "/storage.conf", atomically: true, encoding: .utf8)
        try """
        [[registry]]
        location = "127.0.0.1:\(port)"
        insecure = true
        """.write(toFile: containers + "/registries.conf", atomically: true, encoding: .utf8)
        try "".write(toFile: containers + "/containers.conf", atomically: true, encoding: .utf8)
        let environment = [
            "HOME": sandbox.root + "/home", "PATH": bin + ":/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
            "REGISTRY_AUTH_FILE": authFile, "CONTAINERS_STORAGE_CONF": containers + "/storage.conf",
            "CONTAINERS_REGISTRIES_CONF": containers + "/registries.conf",
            "CONTAINERS_CONF": containers + "/containers.conf",
        ]
        func podman(_ arguments: [String], stdin: String? = nil) throws -> RunResult {
            try sandbox.run(
                "/usr/bin/podman", arguments, environment: environment, stdin: stdin.map { .text($0) },
                timeout: .seconds(60))
        }
        let registryName = "127.0.0.1:\(port)"
        let origin = "https://\(registryName)"

        let login = try podman(
            ["login", "--tls-verify=false", "--authfile", authFile, "-u", "ci", "--password-stdin", registryName],
            stdin: "reg-secret")
        #expect(login.exitCode == 0, "\(login)")
        #expect(login.out.contains("Login Succeeded"), "\(login)")
        // podman asks the helper before it logs in; "not found" is said on stdout only.
        #expect(!login.err.contains("pwtui"), "\(login)")
        let auth = String(decoding: readBytes(authFile) ?? [], as: UTF8.self)
        let basic = Data("ci:reg-secret".utf8).base64EncodedString()
        #expect(!auth.contains(basic) && !auth.contains("reg-secret") && !auth.contains("\"auths\""), "\(auth)")
        let stored = try sandbox.pwtui(["get", origin, "--field", "both"], password: .none)
        #expect(stored.exitCode == 0 && stored.out == "ci\nreg-secret\n", "\(stored)")
        // podman's get: it reads the login back from pwtui and the registry accepts it.
        let again = try podman(["login", "--tls-verify=false", "--authfile", authFile, registryName])
        #expect(again.exitCode == 0 && again.out.contains("Existing credentials are valid"), "\(again)")
        let whoami = try podman(["login", "--get-login", "--authfile", authFile, registryName])
        #expect(whoami.exitCode == 0 && whoami.out == "ci\n", "\(whoami)")

        // The registry refuses a wrong password: podman never stores it.
        let refused = try podman(
            ["login", "--tls-verify=false", "--authfile", authFile, "-u", "ci", "--password-stdin", registryName],
            stdin: "wrong")
        #expect(refused.exitCode != 0, "\(refused)")
        let unchanged = try sandbox.pwtui(["get", origin], password: .none)
        #expect(unchanged.out == "reg-secret\n", "\(unchanged)")

        let logout = try podman(["logout", "--authfile", authFile, registryName])
        #expect(logout.exitCode == 0 && logout.out.contains("Removed login credentials"), "\(logout)")
        let gone = try sandbox.pwtui(["get", origin], password: .none)
        #expect(gone.exitCode == 1, "\(gone)")
        // Only the registry's login went: the rest of the vault is as it was.
        let web = try sandbox.pwtui(["get", "github.com"], password: .none)
        #expect(web.out == "web-pass\n", "\(web)")
    }
}
