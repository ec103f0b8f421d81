// What every Secret Service test stands on: the service under test on a private session bus
// (`SecretServiceUnderTest.start`, the one place that says which service that is), a client in
// the tests' Python environment run under `dbus-run-session` against it
// (`SecretServiceUnderTest.serve`), the store in memory the protocol tests fill, and the Python
// lines every client starts with (`SecretServiceUnderTest.prelude`: jeepney, pure Python).

import Foundation
import Platform
import PwtuiTestSupport
import SecretService
import Testing
import VaultCrypto

/// Items in memory, each secret in protected memory: what the vault will be behind the service.
final class MemoryItemStore: SecretItemStore, @unchecked Sendable {
    // @unchecked: filled before the server's thread starts, only read afterwards (what is
    // locked, under `state`: a prompter unlocks from its own thread).
    final class Item {
        var label: String
        var attributes: [String: String]
        var secret: SecureBytes
        var contentType = "text/plain"
        var creator: SecretCaller?
        /// Seconds since 1970: fixed for the items a test seeds (secret-tool prints them), now
        /// for the ones clients make and change (secretstorage's suite compares with its clock).
        var created: UInt64 = 1_700_000_000
        var modified: UInt64 = 1_700_000_060

        init(_ label: String, _ attributes: [String: String], _ secret: String) throws {
            self.label = label
            self.attributes = attributes
            self.secret = try SecureBytes(copying: Array(secret.utf8))
        }

        init(_ label: String, _ attributes: [String: String], copying secret: borrowing SecureBytes) throws {
            self.label = label
            self.attributes = attributes
            self.secret = try secret.withUnsafeBytes { try SecureBytes(copying: $0) }
            created = Self.now
            modified = created
        }

        static var now: UInt64 { UInt64(time(nil)) }
    }

    var items: [String: Item] = [:]
    var collectionLabel = "Login"
    private let state = Lock()
    private var lockedIDs: Set<String> = []
    private var wholeLocked = false
    var locked: Set<String> {
        get { state.withLock { lockedIDs } }
        set { state.withLock { lockedIDs = newValue } }
    }
    var collectionLocked: Bool {
        get { state.withLock { wholeLocked } }
        set { state.withLock { wholeLocked = newValue } }
    }

    func unlockAll() {
        state.withLock {
            lockedIDs = []
            wholeLocked = false
        }
    }
    /// Listed and described as unlocked, refused when read: locked between the two.
    var lockedOnRead: Set<String> = []
    private var made = 0

    func create(
        label: String, attributes: [String: String], secret: borrowing SecureBytes, contentType: String,
        replace: Bool, creator: SecretCaller
    ) throws(DBusFailure) -> (id: String, replaced: Bool) {
        do {
            if replace, let (id, item) = items.first(where: { $0.value.attributes == attributes }) {
                item.label = label
                item.secret = try secret.withUnsafeBytes { try SecureBytes(copying: $0) }
                item.contentType = contentType
                item.modified = Item.now
                return (id, true)
            }
            made += 1
            let item = try Item(label, attributes, copying: secret)
            item.contentType = contentType
            item.creator = creator
            items["new\(made)"] = item
            return ("new\(made)", false)
        } catch {
            throw .failed("\(error)")
        }
    }

    func setSecret(of id: String, to secret: borrowing SecureBytes, contentType: String) throws(DBusFailure) {
        guard let item = items[id] else { throw .noSuchObject("no item \(id)") }
        do {
            item.secret = try secret.withUnsafeBytes { try SecureBytes(copying: $0) }
        } catch {
            throw .failed("\(error)")
        }
        item.contentType = contentType
        item.modified = Item.now
    }

    func update(_ id: String, label: String?, attributes: [String: String]?) throws(DBusFailure) {
        guard let item = items[id] else { throw .noSuchObject("no item \(id)") }
        if let label { item.label = label }
        if let attributes { item.attributes = attributes }
        item.modified = Item.now
    }

    func relabelCollection(_ label: String) throws(DBusFailure) {
        collectionLabel = label
    }

    func lock() throws(DBusFailure) {
        locked = Set(items.keys)
        collectionLocked = true
    }

    func delete(_ id: String) throws(DBusFailure) {
        guard items.removeValue(forKey: id) != nil else { throw .noSuchObject("no item \(id)") }
    }

    /// How many times `search` was asked (a listing, for the agent a round trip as long as the vault).
    private(set) var searches = 0

    func search(_ attributes: [String: String]) throws(DBusFailure) -> (unlocked: [String], locked: [String]) {
        searches += 1
        let found = items.filter { _, item in attributes.allSatisfy { item.attributes[$0.key] == $0.value } }
            .keys.sorted()
        return (found.filter { !locked.contains($0) }, found.filter { locked.contains($0) })
    }

    /// How many times the collection was described (its times: for the agent, a pass over the vault).
    private(set) var collectionDescriptions = 0

    func isLocked() throws(DBusFailure) -> Bool { collectionLocked }

    func describeCollection() throws(DBusFailure) -> SecretCollectionDescription {
        collectionDescriptions += 1
        return SecretCollectionDescription(
            label: collectionLabel, locked: collectionLocked, created: 1_600_000_000, modified: 1_700_000_060)
    }

    func describe(_ id: String) throws(DBusFailure) -> SecretItemDescription {
        guard let item = items[id] else { throw .noSuchObject("no item \(id)") }
        return SecretItemDescription(
            label: item.label, attributes: item.attributes, locked: locked.contains(id), created: item.created,
            modified: item.modified)
    }

    /// Items whose reads ask the user, who answers yes after `askingTime`.
    var asking: Set<String> = []
    var askingTime = Duration.zero

    func forAnotherThread() -> any SecretItemStore { self }

    func withSecret<Result: ~Copyable>(
        of id: String, for caller: SecretCaller, asking mayAsk: Bool,
        _ body: (UnsafeRawBufferPointer, String) throws(DBusFailure) -> Result
    ) throws(DBusFailure) -> Result {
        guard let item = items[id] else { throw .noSuchObject("no item \(id)") }
        if asking.contains(id) {
            guard mayAsk else { throw .mustAsk("reading \(id) asks the user") }
            Thread.sleep(
                forTimeInterval: Double(askingTime.components.seconds) + Double(askingTime.components.attoseconds)
                    / 1e18)
        }
        guard !locked.contains(id), !lockedOnRead.contains(id) else { throw .isLocked("item \(id) is locked") }
        return try item.secret.withUnsafeBytes { (bytes) throws(DBusFailure) in try body(bytes, item.contentType) }
    }
}

/// Whether a server thread was told to stop, and how it ended.
final class StopFlag: @unchecked Sendable {
    // @unchecked: every access under `lock`.
    private let lock = Lock()
    private var stopped = false
    private var ended: String?

    var isStopped: Bool { lock.withLock { stopped } }
    func stop() { lock.withLock { stopped = true } }
    func end(_ outcome: String) { lock.withLock { ended = outcome } }
    var outcome: String? { lock.withLock { ended } }
}

/// The Secret Service a test's clients talk to, serving a private session bus.
final class SecretServiceUnderTest {
    /// Which service.
    enum Kind {
        /// The server in this process over `store`: the protocol's details, with stores a test
        /// fills (locked items, items locked between a listing and a read) and prompters it scripts.
        case inProcess(MemoryItemStore, prompter: (any SecretPrompter)? = nil)

        /// The real thing: `pwtui-secret-service` (from `PWTUI_BIN_DIR`, else beside this test
        /// executable) as its own process, over a new vault in a home of its own held by an
        /// agent (`pwtui agent start`, `pwtui unlock`), as docs/secret-service.md runs it; or
        /// over the vault and agent of `home`, which a test keeps between two services.
        case binary(BinaryHome? = nil)

        /// What real clients (secret-tool, keyring, secretstorage's suite, Chromium) meet,
        /// starting with an empty collection.
        static var forRealClients: Kind { .binary() }
    }

    private let flag = StopFlag()
    /// The binary's home (vault, settings, the agent's socket) and the binary, for `.binary`.
    private var home: BinaryHome?
    private var child: ChildProcess?

    private init() {}

    /// Where the binary's own programs are: `PWTUI_BIN_DIR` (make test sets it), else the
    /// directory of this test executable, beside which SwiftPM builds the products.
    static var binDirectory: String {
        if let directory = ProcessInfo.processInfo.environment["PWTUI_BIN_DIR"], !directory.isEmpty { return directory }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return (executable as NSString).deletingLastPathComponent
    }

    /// A vault, its settings (no agent started on its own: the home starts one and stops it) and
    /// XDG directories of their own; the master password in a file only the test reads, given
    /// to pwtui on descriptor 3, never in argv or the environment.
    final class BinaryHome {
        let directory = TemporaryDirectory("secret-service-home")
        let environment: [String: String]
        let passwordFile: String
        let pwtui = SecretServiceUnderTest.binDirectory + "/pwtui"

        init() throws {
            let root = directory.path
            var environment = ProcessInfo.processInfo.environment.filter { key, _ in
                !key.hasPrefix("PWTUI_") && !key.hasPrefix("XDG_") && !key.hasPrefix("SWIFT_BACKTRACE")
                    && key != "TMUX" && key != "TMUX_PANE"
            }
            for (name, sub) in [
                ("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"), ("XDG_STATE_HOME", "state"),
                ("XDG_RUNTIME_DIR", "runtime"),
            ] {
                environment[name] = root + "/xdg/" + sub
                try FileManager.default.createDirectory(
                    atPath: root + "/xdg/" + sub, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            }
            environment["PWTUI_VAULT"] = root + "/vault/vault.pwtui"
            environment["NO_COLOR"] = "1"
            self.environment = environment
            try FileManager.default.createDirectory(
                atPath: root + "/xdg/config/pwtui", withIntermediateDirectories: true)
            try "agent = \"off\"\n".write(
                toFile: root + "/xdg/config/pwtui/config.toml", atomically: true, encoding: .utf8)
            passwordFile = root + "/password"
            try "correct horse battery staple\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passwordFile)
            try #require(FileManager.default.isExecutableFile(atPath: pwtui), "no \(pwtui): swift build first")
            try run(["init", "--kdf", "interactive"], password: true)
            try startAgent()
        }

        /// `pwtui agent start` and `pwtui unlock`.
        func startAgent() throws {
            try run(["agent", "start", "--idle-timeout", "15m"], password: false)
            try run(["unlock"], password: true)
        }

        /// The agent stopped (the vault's key gone from memory) and started and unlocked again.
        func restartAgent() throws {
            try run(["agent", "stop"], password: false)
            try startAgent()
        }

        /// `pwtui ARGUMENTS` to its end, which must be exit 0.
        func run(_ arguments: [String], password: Bool) throws {
            // sh opens the password file on descriptor 3 for pwtui alone.
            let child = try ChildProcess.start(
                "/bin/sh",
                ["-c", password ? "exec \"$@\" --master-password-fd 3 3<\"$0\"" : "exec \"$@\"", passwordFile, pwtui]
                    + arguments, environment: environment, errors: .inherited)
            // Its messages go to the test's log; not read through a pipe, which the agent that
            // `agent start` leaves behind would hold open.
            let ending = child.wait()
            try #require(ending == .exited(0), "pwtui \(arguments.joined(separator: " ")): \(ending)")
        }

        deinit {
            try? run(["agent", "stop"], password: false)
        }
    }

    /// Starts the service `kind` names on the bus at `address`; it serves until `stop`.
    static func start(on address: String, _ kind: Kind = .forRealClients) throws -> SecretServiceUnderTest {
        let service = SecretServiceUnderTest()
        switch kind {
        case .inProcess(let store, let prompter):
            let flag = service.flag
            try DetachedThread.start {
                do {
                    try SecretServiceServer.run(address: address, store: store, prompter: prompter) { !flag.isStopped }
                    flag.end("stopped")
                } catch {
                    flag.end("\(error)")
                }
            }
        case .binary(let kept):
            let home = try kept ?? BinaryHome()
            service.home = home
            let program = binDirectory + "/pwtui-secret-service"
            try #require(FileManager.default.isExecutableFile(atPath: program), "no \(program): swift build first")
            var environment = home.environment
            environment["DBUS_SESSION_BUS_ADDRESS"] = address
            service.child = try ChildProcess.start(program, [], environment: environment, errors: .inherited)
        }
        return service
    }

    /// Stops the service: how it ended ("stopped" when it served to the end), nil when it did
    /// not end within two seconds.
    func stop() -> String? {
        if let child {
            // It ends by itself when the bus does; else SIGTERM, as systemd stops it.
            var ending = child.poll()
            if ending == nil { kill(child.id, SIGTERM) }
            for _ in 0 ..< 100 where ending == nil {
                usleep(50_000)
                ending = child.poll()
            }
            home = nil
            guard let ending else { return nil }
            return ending == .exited(0) ? "stopped" : "\(ending)"
        }
        flag.stop()
        for _ in 0 ..< 40 where flag.outcome == nil { usleep(50_000) }
        return flag.outcome
    }

    /// Runs `client` (Python, in the tests' environment: `prelude` first) under
    /// `dbus-run-session`, with the service `kind` names on its bus once the client has written
    /// the bus's address (the client's first argument is where; `arguments` follow it); the
    /// client's stdout, after checking that it and the service ended well.
    static func serve(_ kind: Kind = .forRealClients, to client: String, arguments: [String] = []) throws -> String {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-run-session"), "make deps: dbus-daemon")
        try #require(TestPython.isReady, "\(TestPython.missing)")
        let directory = TemporaryDirectory("secret-service")
        let addressFile = try directory.freshPath("address")
        let child = try ChildProcess.start(
            "/usr/bin/dbus-run-session",
            ["--", TestPython.interpreter, "-c", prelude + client, addressFile] + arguments,
            output: .pipe, errors: .inherited)
        var address: String?
        for _ in 0 ..< 200 where address == nil {
            address = try? String(contentsOfFile: addressFile, encoding: .utf8)
            if address == nil { usleep(50_000) }
        }
        let busAddress = try #require(address, "dbus-run-session never ran the client")
        let service = try start(on: busAddress, kind)
        let output = try #require(child.output)
        let text = String(decoding: try output.readToEnd(), as: UTF8.self)
        output.close()
        #expect(child.wait() == .exited(0), "the client failed:\n\(text)")
        let outcome = service.stop()
        #expect(outcome == "stopped", "the service ended with \(outcome ?? "nothing")")
        return text
    }

    /// What every client starts with: it writes the bus's address where its first argument
    /// says, waits until `org.freedesktop.secrets` is owned (not only activatable: a call before
    /// would have the bus daemon start whatever else is installed to serve it, gnome-keyring),
    /// and has `call`, `service`, `get`, `error`, `say` and `last` at hand, over jeepney.
    static let prelude = #"""
        import os, sys, time
        from jeepney import DBusAddress, DBusErrorResponse, HeaderFields, MatchRule, MessageType, message_bus, new_method_call
        from jeepney.io.blocking import open_dbus_connection
        with open(sys.argv[1] + ".tmp", "w") as f:
            f.write(os.environ["DBUS_SESSION_BUS_ADDRESS"])
        os.rename(sys.argv[1] + ".tmp", sys.argv[1])
        bus = open_dbus_connection(bus="SESSION")
        for _ in range(400):
            if bus.send_and_get_reply(message_bus.NameHasOwner("org.freedesktop.secrets")).body[0]:
                break
            time.sleep(0.05)
        else:
            sys.exit("org.freedesktop.secrets was never owned")
        SERVICE = "/org/freedesktop/secrets"
        COLLECTION = SERVICE + "/collection/login"
        ALIAS = SERVICE + "/aliases/default"
        def say(name, value):
            print(name, value, flush=True)
        def call(path, interface, method, signature=None, *arguments, connection=None):
            message = new_method_call(DBusAddress(path, "org.freedesktop.secrets", interface), method, signature, arguments)
            reply = (connection or bus).send_and_get_reply(message)
            if reply.header.message_type == MessageType.error:
                raise DBusErrorResponse(reply)
            return reply.body
        def service(method, signature=None, *arguments, connection=None):
            return call(SERVICE, "org.freedesktop.Secret.Service", method, signature, *arguments, connection=connection)
        def get(path, interface, name):
            (signature, value), = call(path, "org.freedesktop.DBus.Properties", "Get", "ss", interface, name)
            return value
        def error(thunk):
            try:
                thunk()
                return "none"
            except DBusErrorResponse as e:
                return e.name
        def last(path):
            return path.rsplit("/", 1)[1]

        """#
}
