// `pwtui secret-service` with libsecret's own client (issue 40): a private session bus (a
// dbus-daemon the test starts, with no activatable services, so nothing but pwtui can answer
// org.freedesktop.secrets), the real binary serving it from a real agent, and `secret-tool`
// storing, looking up, searching and clearing. The items are vault items: `pwtui list` and `show`
// see them, `get` never answers a service request with one, and they outlive the service and the
// agent. A locked agent gives nothing to a client without a terminal; a copy of secret-tool under
// another name is another program, asked about (and, with no terminal, refused) when the item's
// policy says so.

import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

@Suite("Secret Service with secret-tool, on the binary")
struct SecretServiceProgramTests {
    /// A session bus of the test's own: `dbus-daemon` with a configuration that listens on a
    /// socket in the sandbox and activates nothing (gnome-keyring's activation file, installed on
    /// this machine, would otherwise answer for a name nobody owns).
    final class PrivateBus {
        let daemon: Child
        let address: String

        /// `services`: a directory of D-Bus activation files the bus may start (none: nothing).
        init(_ sandbox: Sandbox, services: String? = nil) throws {
            let socket = sandbox.root + "/bus"
            let config = sandbox.root + "/bus.conf"
            try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(socket)</listen>
              <auth>EXTERNAL</auth>
              \(services.map { "<servicedir>\($0)</servicedir>" } ?? "")
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """.write(toFile: config, atomically: true, encoding: .utf8)
            daemon = try sandbox.start("/usr/bin/dbus-daemon", ["--config-file=" + config, "--nofork", "--nopidfile"])
            address = "unix:path=" + socket
            try #require(poll(timeout: .seconds(10)) { FileManager.default.fileExists(atPath: socket) }, "no bus")
        }

        deinit {
            daemon.signal(SIGTERM)
            daemon.wait(timeout: .seconds(5))
        }

        var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

        /// Whether org.freedesktop.secrets has an owner on this bus.
        func isServed(_ sandbox: Sandbox) throws -> Bool {
            let asked = try sandbox.run(
                "/usr/bin/dbus-send",
                [
                    "--bus=" + address, "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                    "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.secrets",
                ])
            return asked.out.contains("boolean true")
        }
    }

    /// A vault, an unlocked agent, a private bus and `pwtui secret-service` serving it: the
    /// opening of most tests here; everything stops with it.
    final class Served {
        let sandbox: Sandbox
        let bus: PrivateBus
        var service: Child

        init() throws {
            try SecretServiceProgramTests.requirePrograms()
            sandbox = try Sandbox.withVault()
            try sandbox.startUnlockedAgent()
            bus = try PrivateBus(sandbox)
            service = try SecretServiceProgramTests.serve(sandbox, on: bus)
        }

        deinit {
            service.signal(SIGTERM)
            service.wait(timeout: .seconds(5))
            sandbox.stopAgent()
        }
    }

    static func requirePrograms() throws {
        for program in ["/usr/bin/dbus-daemon", "/usr/bin/dbus-send", "/usr/bin/secret-tool"] {
            try #require(FileManager.default.isExecutableFile(atPath: program), "make deps: \(program)")
        }
    }

    /// `pwtui secret-service` on `bus`, once it owns the name.
    static func serve(_ sandbox: Sandbox, on bus: PrivateBus) throws -> Child {
        let service = try sandbox.start(
            try Binaries.require(Binaries.pwtui), ["secret-service"], environment: bus.environment)
        let owned = try poll(timeout: .seconds(15), every: .milliseconds(50)) {
            if !service.isRunning { return true }
            return try bus.isServed(sandbox)
        }
        try #require(
            owned && service.isRunning, "the service never took the name: \(service.wait(timeout: .seconds(1)))")
        return service
    }

    /// `secret-tool ARGUMENTS` on `bus`, with `input` on stdin exactly (no newline added).
    static func secretTool(
        _ sandbox: Sandbox, _ bus: PrivateBus, _ arguments: [String], input: String? = nil,
        program: String = "/usr/bin/secret-tool"
    ) throws -> RunResult {
        guard let input else { return try sandbox.run(program, arguments, environment: bus.environment) }
        let command =
            "printf %s \(Child.shellQuoted(input)) | \(Child.shellQuoted(program)) "
            + arguments.map(Child.shellQuoted).joined(separator: " ")
        return try sandbox.run("/bin/sh", ["-c", command], environment: bus.environment)
    }

    /// The vault's keyring items as `pwtui list --format json` lists them.
    static func keyringItems(_ sandbox: Sandbox) throws -> [[String: Any]] {
        try sandbox.listJSON().filter { ($0["kind"] as? String) == "keyring" }
    }

    @Test(
        "secret-tool stores, replaces, looks up, searches and clears through pwtui secret-service; the items are vault items that no service request matches, and outlive the service and the agent"
    )
    func secretToolRoundTrip() throws {
        let served = try Served()
        let (sandbox, bus) = (served.sandbox, served.bus)

        let attributes = ["service", "example", "user", "me"]
        let stored = try Self.secretTool(
            sandbox, bus, ["store", "--label", "API token"] + attributes, input: "s3cret ü")
        #expect(stored.exitCode == 0, "\(stored)")
        let looked = try Self.secretTool(sandbox, bus, ["lookup"] + attributes)
        #expect(looked.exitCode == 0 && looked.out == "s3cret ü", "\(looked)")
        // A whole block of padding in the DH session libsecret opens (48 bytes), replacing the first.
        let block = String(repeating: "k", count: 48)
        let replaced = try Self.secretTool(sandbox, bus, ["store", "--label", "API token"] + attributes, input: block)
        #expect(replaced.exitCode == 0, "\(replaced)")
        #expect(try Self.secretTool(sandbox, bus, ["lookup"] + attributes).out == block)
        let other = try Self.secretTool(
            sandbox, bus, ["store", "--label", "Other", "service", "example", "user", "you"], input: "2nd")
        #expect(other.exitCode == 0, "\(other)")
        let searched = try Self.secretTool(sandbox, bus, ["search", "--all", "service", "example"])
        #expect(
            searched.exitCode == 0 && searched.out.contains("label = API token")
                && searched.out.contains("label = Other"), "\(searched)")
        #expect(searched.err.contains("attribute.user = you") && searched.out.contains("secret = 2nd"), "\(searched)")
        let nothing = try Self.secretTool(sandbox, bus, ["lookup", "service", "nowhere"])
        #expect(nothing.exitCode != 0 && nothing.out.isEmpty, "\(nothing)")

        // In the vault: two keyring items, the replaced secret in the first's history.
        let items = try Self.keyringItems(sandbox)
        #expect(Set(items.compactMap { $0["title"] as? String }) == ["API token", "Other"], "\(items)")
        let token = try #require(items.first { ($0["title"] as? String) == "API token" }?["id"] as? String)
        let shown = try sandbox.pwtui(["show", token], password: .none)
        #expect(
            shown.exitCode == 0 && shown.out.contains("attribute service") && shown.out.contains("keyring creator"),
            "\(shown)")
        #expect(!shown.out.contains(block), "shown masked: \(shown)")
        let history = try sandbox.pwtui(["history", token, "--reveal"], password: .none)
        #expect(history.exitCode == 0 && history.out.contains("s3cret ü"), "\(history)")
        // No service request answers with a keyring item, though an attribute says "example".
        let get = try sandbox.pwtui(["get", "https://example"], password: .none)
        #expect(get.exitCode == 1 && !get.out.contains(block), "\(get)")

        // The service ends on SIGTERM; the agent stops and starts again; a new service finds it all.
        served.service.signal(SIGTERM)
        let ended = served.service.wait(timeout: .seconds(5))
        #expect(!ended.timedOut && ended.exitCode == 0, "\(ended)")
        sandbox.stopAgent()
        try sandbox.startUnlockedAgent()
        served.service = try Self.serve(sandbox, on: bus)
        #expect(try Self.secretTool(sandbox, bus, ["lookup"] + attributes).out == block)

        let cleared = try Self.secretTool(sandbox, bus, ["clear"] + attributes)
        #expect(cleared.exitCode == 0, "\(cleared)")
        #expect(try Self.secretTool(sandbox, bus, ["lookup"] + attributes).exitCode != 0)
        #expect(try Self.keyringItems(sandbox).compactMap { $0["title"] as? String } == ["Other"])
    }

    @Test(
        "a locked agent gives nothing to a client without a terminal; an item that asks first is refused to another program (a copy of secret-tool) and given to its creator"
    )
    func lockedAndAskingFirst() throws {
        let served = try Served()
        let (sandbox, bus) = (served.sandbox, served.bus)
        let attributes = ["application", "chromium"]
        let stored = try Self.secretTool(
            sandbox, bus, ["store", "--label", "Chromium Safe Storage"] + attributes, input: "cookie-key")
        try #require(stored.exitCode == 0, "\(stored)")

        // Policy `other`: secret-tool made it and reads it; the same program under another name
        // (what /proc/PID/exe says, not argv[0]) is asked about, and with no terminal refused.
        let id = try #require(try Self.keyringItems(sandbox).first?["id"] as? String)
        let policy = try sandbox.pwtui(
            ["edit", id, "--field", "keyring confirm", "--text"], password: .none, stdin: "other")
        try #require(policy.exitCode == 0, "\(policy)")
        #expect(try Self.secretTool(sandbox, bus, ["lookup"] + attributes).out == "cookie-key")
        let copy = sandbox.root + "/evil-tool"
        try FileManager.default.copyItem(atPath: "/usr/bin/secret-tool", toPath: copy)
        let stolen = try Self.secretTool(sandbox, bus, ["lookup"] + attributes, program: copy)
        #expect(stolen.out.isEmpty && stolen.exitCode != 0, "\(stolen)")

        // Locked: nothing is listed or given, and nobody can be asked for the master password.
        let lock = try sandbox.pwtui(["agent", "lock"], password: .none)
        try #require(lock.exitCode == 0, "\(lock)")
        let locked = try Self.secretTool(sandbox, bus, ["lookup"] + attributes)
        #expect(locked.out.isEmpty && locked.exitCode != 0, "\(locked)")
        let search = try Self.secretTool(sandbox, bus, ["search", "--all"] + attributes)
        #expect(!search.out.contains("cookie-key"), "\(search)")
        let refusedStore = try Self.secretTool(sandbox, bus, ["store", "--label", "x", "a", "b"], input: "y")
        #expect(refusedStore.exitCode != 0, "\(refusedStore)")
        #expect(served.service.isRunning)
        // Unlocked again, everything is back.
        let unlock = try sandbox.pwtui(["unlock"])
        try #require(unlock.exitCode == 0, "\(unlock)")
        #expect(try Self.secretTool(sandbox, bus, ["lookup"] + attributes).out == "cookie-key")
    }

    @Test(
        "make install-files' D-Bus activation file starts pwtui-secret-service for the first client, from the bus's environment"
    )
    func activation() throws {
        try Self.requirePrograms()
        let sandbox = try Sandbox.withVault()
        defer { sandbox.stopAgent() }
        try sandbox.startUnlockedAgent()
        let prefix = sandbox.root + "/prefix"
        let install = try sandbox.run(
            "/usr/bin/make",
            [
                "-C", ManualPageTests.repository, "--no-print-directory", "install-files", "PREFIX=\(prefix)",
                "PWTUI_BUILT=\(try Binaries.require(Binaries.pwtui))",
                "SECRET_SERVICE_BUILT=\(try Binaries.require(Binaries.secretService))",
            ])
        try #require(install.exitCode == 0, "\(install)")
        let bus = try PrivateBus(sandbox, services: prefix + "/share/dbus-1/services")
        #expect(try !bus.isServed(sandbox), "nobody serves the name before a client asks")
        let stored = try Self.secretTool(sandbox, bus, ["store", "--label", "activated", "k", "v"], input: "started")
        #expect(stored.exitCode == 0, "\(stored)")
        #expect(try bus.isServed(sandbox))
        #expect(try Self.secretTool(sandbox, bus, ["lookup", "k", "v"]).out == "started")
        #expect(try Self.keyringItems(sandbox).compactMap { $0["title"] as? String } == ["activated"])
    }

    @Test("secret_service = true: the agent starts the Secret Service beside it, and ends it as it stops")
    func startedByTheAgent() throws {
        try Self.requirePrograms()
        let sandbox = try Sandbox.withVault()
        defer { sandbox.stopAgent() }
        try sandbox.writeConfig("secret_service = true\n")
        let bus = try PrivateBus(sandbox)
        let start = try sandbox.pwtui(
            ["agent", "start"], password: .none, environment: bus.environment, timeout: .seconds(15))
        try #require(start.exitCode == 0, "\(start)")
        let unlock = try sandbox.pwtui(["unlock"])
        try #require(unlock.exitCode == 0, "\(unlock)")
        #expect(try poll(timeout: .seconds(10), every: .milliseconds(50)) { try bus.isServed(sandbox) })
        let stored = try Self.secretTool(sandbox, bus, ["store", "--label", "by the agent", "k", "v"], input: "kept")
        #expect(stored.exitCode == 0, "\(stored)")
        #expect(try Self.secretTool(sandbox, bus, ["lookup", "k", "v"]).out == "kept")
        let stop = try sandbox.pwtui(["agent", "stop"], password: .none)
        #expect(stop.exitCode == 0, "\(stop)")
        #expect(try poll(timeout: .seconds(5), every: .milliseconds(50)) { try !bus.isServed(sandbox) })
    }

    @Test(
        "in a terminal: a locked agent's search still finds the item, and secret-tool's unlock asks the master password in its pane; an item that asks first asks a renamed secret-tool there, y gives it"
    )
    func askedInThePane() throws {
        let served = try Served()
        let (sandbox, bus) = (served.sandbox, served.bus)
        let stored = try Self.secretTool(
            sandbox, bus, ["store", "--label", "Token", "app", "pane"], input: "from-pane")
        try #require(stored.exitCode == 0, "\(stored)")
        let lock = try sandbox.pwtui(["agent", "lock"], password: .none)
        try #require(lock.exitCode == 0, "\(lock)")

        let tmux = try TmuxSession.shellReady(sandbox: sandbox)
        let out = sandbox.scratch + "/lookup.out"
        let rc = sandbox.scratch + "/lookup.rc"
        func lookup(_ program: String, _ rc: String) throws {
            try tmux.enter(
                "DBUS_SESSION_BUS_ADDRESS='\(bus.address)' '\(program)' lookup app pane > '\(out)'; echo RC=$? > '\(rc).tmp'; mv '\(rc).tmp' '\(rc)'"
            )
        }
        try lookup("/usr/bin/secret-tool", rc)
        let asked = try tmux.requirePane("the master password asked in the pane") { $0.contains("Master password") }
        #expect(asked.contains("secret-tool asks the keyring (the Secret Service) to unlock"), "\(asked)")
        try tmux.type(sandbox.password)
        try tmux.press("Enter")
        #expect(commandResult(rc, timeout: .seconds(30))?.contains("RC=0") == true, "\(tmux.captures.last ?? "")")
        #expect(readBytes(out).map { String(decoding: $0, as: UTF8.self) } == "from-pane")
        #expect(try sandbox.pwtui(["agent", "status"], password: .none).exitCode == 0, "unlocked")
        #expect(!(try tmux.capture()).contains(sandbox.password), "the password was not echoed")

        // Policy `other`: a copy of secret-tool under another name is asked about; y gives it.
        let id = try #require(try Self.keyringItems(sandbox).first?["id"] as? String)
        let policy = try sandbox.pwtui(
            ["edit", id, "--field", "keyring confirm", "--text"], password: .none, stdin: "other")
        try #require(policy.exitCode == 0, "\(policy)")
        let copy = sandbox.root + "/other-tool"
        try FileManager.default.copyItem(atPath: "/usr/bin/secret-tool", toPath: copy)
        try tmux.enter("clear")
        let second = sandbox.scratch + "/second.rc"
        try lookup(copy, second)
        let question = try tmux.requirePane("the read asked about") { $0.contains("Allow this read?") }
        #expect(question.contains("other-tool asks to read \"Token\" from your keyring"), "\(question)")
        #expect(question.contains("stored by: secret-tool"), "\(question)")
        try tmux.type("y")
        #expect(commandResult(second, timeout: .seconds(30))?.contains("RC=0") == true, "\(tmux.captures.last ?? "")")
        #expect(readBytes(out).map { String(decoding: $0, as: UTF8.self) } == "from-pane")
    }
}
