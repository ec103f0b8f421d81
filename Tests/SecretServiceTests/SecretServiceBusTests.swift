// The Secret Service on a real session bus: `dbus-run-session` starts a private dbus-daemon and
// runs a client in Python (the tests' environment from PyPI: jeepney, cryptography,
// secretstorage, keyring); the client writes the bus's address for the test, which serves
// `org.freedesktop.secrets` on it (`SecretServiceUnderTest`), and then asks what libsecret asks:
// OpenSession plain and DH, SearchItems, GetSecrets, Close; an unknown algorithm, another
// connection's session, and a call with the wrong arguments.

import Foundation
import Platform
import PwtuiTestSupport
import SecretService
import Testing
import VaultCrypto

@Suite struct SecretServiceBusTests {
    /// The client: one line per check, `name value`, for the test to compare.
    static let client = #"""
        from cryptography.hazmat.primitives import hashes, padding
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
        from cryptography.hazmat.primitives.kdf.hkdf import HKDF
        unlocked, locked = service("SearchItems", "a{ss}", {"service": "github.com"})
        say("search", ",".join(map(last, unlocked)) + "|" + ",".join(map(last, locked)))
        (signature, output), plain = service("OpenSession", "sv", "plain", ("s", ""))
        say("plain-output", repr(output))
        secrets, = service("GetSecrets", "aoo", unlocked, plain)
        for path in sorted(secrets):
            session, parameters, value, content_type = secrets[path]
            say("plain", last(path) + "=" + value.decode() + ";" + content_type + ";" + str(len(parameters)))
        p = int("FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
                "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
                "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF", 16)
        for round in range(20):
            x = int.from_bytes(os.urandom(128), "big")
            mine = pow(2, x, p)
            (signature, theirs), dh = service(
                "OpenSession", "sv", "dh-ietf1024-sha256-aes128-cbc-pkcs7",
                ("ay", mine.to_bytes((mine.bit_length() + 7) // 8, "big")))
            shared = pow(int.from_bytes(theirs, "big"), x, p).to_bytes(128, "big")
            key = HKDF(algorithm=hashes.SHA256(), length=16, salt=None, info=b"").derive(shared)
            secrets, = service("GetSecrets", "aoo", unlocked, dh)
            opened = []
            for path in sorted(secrets):
                session, parameters, value, content_type = secrets[path]
                decryptor = Cipher(algorithms.AES(key), modes.CBC(parameters)).decryptor()
                unpadder = padding.PKCS7(128).unpadder()
                plain_value = unpadder.update(decryptor.update(value) + decryptor.finalize()) + unpadder.finalize()
                opened.append(last(path) + "=" + plain_value.decode() + ";" + str(len(parameters)))
            say("dh", " ".join(opened))
        say("locked-left-out", len(service("GetSecrets", "aoo", unlocked + locked, plain)[0]))
        racing = COLLECTION + "/f6"
        say("locked-meanwhile", ",".join(sorted(map(last, service("GetSecrets", "aoo", [unlocked[0], racing], plain)[0]))))
        say("unknown-algorithm", error(lambda: service("OpenSession", "sv", "rot13", ("s", ""))))
        other = open_dbus_connection(bus="SESSION")
        say("another-connections-session", error(lambda: service("GetSecrets", "aoo", unlocked, plain, connection=other)))
        say("wrong-arguments", error(lambda: service("SearchItems", "s", "github.com")))
        call(plain, "org.freedesktop.Secret.Session", "Close")
        say("after-close", error(lambda: service("GetSecrets", "aoo", unlocked, plain)))
        # gnome-keyring's own extension, which this service does not answer.
        say("unknown-method", error(lambda: service("ChangeLock", "o", COLLECTION)))
        still_locked, prompt = service("Unlock", "ao", unlocked + locked)
        say("unlock", ",".join(map(last, still_locked)) + "|" + prompt)
        # Bounds: 64 sessions per connection, 1,024 in all; a connection's end when it leaves.
        def open_plain(c):
            return service("OpenSession", "sv", "plain", ("s", ""), connection=c)
        first = open_dbus_connection(bus="SESSION")
        for _ in range(64):
            open_plain(first)
        say("per-connection", error(lambda: open_plain(first)))
        crowd = [first]
        in_all = "none"
        while in_all == "none" and len(crowd) < 40:
            c = open_dbus_connection(bus="SESSION")
            crowd.append(c)
            for _ in range(64):
                in_all = error(lambda: open_plain(c))
                if in_all != "none":
                    break
        say("in-all", in_all)
        first.close()
        late = open_dbus_connection(bus="SESSION")
        after = "never-tried"
        for _ in range(40):
            after = error(lambda: open_plain(late))
            if after == "none":
                break
            time.sleep(0.05)
        say("after-leaving", after)
        locked_now, prompt = service("Lock", "ao", [COLLECTION])
        say("lock", ",".join(locked_now) + "|" + prompt)
        say("after-lock", len(service("GetSecrets", "aoo", unlocked, dh)[0]))
        say("item-locked", bool(get(unlocked[0], "org.freedesktop.Secret.Item", "Locked")))
        """#

    /// The store both tests serve: two GitHub items (one 32 bytes: a whole block of padding
    /// after it), a locked one, and GitLab's.
    static func store() throws -> MemoryItemStore {
        let store = MemoryItemStore()
        store.items["a1"] = try .init("GitHub", ["service": "github.com", "user": "octocat"], "gh-secret")
        store.items["b2"] = try .init(
            "GitHub bot", ["service": "github.com", "user": "hubot"], "0123456789abcdef0123456789abcdef")
        store.items["c3"] = try .init("Locked", ["service": "github.com", "user": "locked"], "never-given")
        store.items["d4"] = try .init("GitLab", ["service": "gitlab.com"], "other")
        // As Python's keyring stores one: its attributes are `service` and `username`.
        store.items["e5"] = try .init("PyPI", ["service": "pypi.org", "username": "alice"], "pypi-tokén")
        store.locked = ["c3"]
        return store
    }

    /// Runs `client` with the server in this process over `store` (`SecretServiceUnderTest.serve`).
    static func serve(
        _ store: MemoryItemStore, prompter: (any SecretPrompter)? = nil, to client: String
    ) throws -> String {
        try SecretServiceUnderTest.serve(.inProcess(store, prompter: prompter), to: client)
    }

    @Test(
        "under dbus-run-session: plain and DH sessions give the store's secrets exactly; refusals by D-Bus error name; sessions bounded and ended with their connection"
    )
    func servesARealClient() throws {
        let store = try Self.store()
        store.items["f6"] = try .init("Racing", ["service": "race.example"], "locked-between")
        store.lockedOnRead = ["f6"]
        let text = try Self.serve(store, to: Self.client)

        var answers: [String: [String]] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            answers[parts[0], default: []].append(parts.count > 1 ? parts[1] : "")
        }
        #expect(answers["search"] == ["a1,b2|c3"], "matching items, the locked one apart")
        #expect(answers["plain-output"] == ["''"])
        #expect(
            answers["plain"] == ["a1=gh-secret;text/plain;0", "b2=0123456789abcdef0123456789abcdef;text/plain;0"])
        #expect(answers["dh"]?.count == 20)
        #expect(
            answers["dh"]?.allSatisfy { $0 == "a1=gh-secret;16 b2=0123456789abcdef0123456789abcdef;16" } == true,
            "\(answers["dh"] ?? [])")
        #expect(answers["locked-left-out"] == ["2"], "a locked item is left out, never given")
        #expect(answers["locked-meanwhile"] == ["a1"], "one locked between listing and reading: left out whole")
        #expect(answers["unknown-algorithm"] == ["org.freedesktop.DBus.Error.NotSupported"])
        #expect(answers["another-connections-session"] == ["org.freedesktop.Secret.Error.NoSession"])
        #expect(answers["wrong-arguments"] == ["org.freedesktop.DBus.Error.InvalidArgs"])
        #expect(answers["after-close"] == ["org.freedesktop.Secret.Error.NoSession"])
        #expect(answers["unknown-method"] == ["org.freedesktop.DBus.Error.UnknownMethod"])
        #expect(answers["unlock"] == ["a1,b2|/"], "what is readable, no prompt; the locked one stays locked")
        #expect(!text.contains("never-given"))
        #expect(answers["per-connection"] == ["org.freedesktop.DBus.Error.LimitsExceeded"])
        #expect(answers["in-all"] == ["org.freedesktop.DBus.Error.LimitsExceeded"])
        #expect(answers["after-leaving"] == ["none"], "a connection's sessions end when it leaves the bus")
        #expect(answers["lock"] == ["/org/freedesktop/secrets/collection/login|/"], "locked, no prompt")
        #expect(answers["after-lock"] == ["0"], "nothing given once locked")
        #expect(answers["item-locked"] == ["True"])
    }

    /// libsecret itself, through `secret-tool` (Debian's libsecret-tools): it opens a DH
    /// session, so this is the session against libsecret's own C code. Each command's exit
    /// status and output, between markers.
    static let secretTool = #"""
        import subprocess
        address = os.environ["DBUS_SESSION_BUS_ADDRESS"]
        for name, arguments in [
            ("lookup", ["lookup", "service", "github.com", "user", "octocat"]),
            ("lookup-32", ["lookup", "user", "hubot"]),
            ("lookup-none", ["lookup", "service", "nowhere.example"]),
            ("search", ["search", "--all", "service", "github.com"]),
        ]:
            run = subprocess.run(["secret-tool"] + arguments, capture_output=True, timeout=20)
            print("== %s %d" % (name, run.returncode))
            print(run.stdout.decode(), end="")
            print("-- stderr")
            print(run.stderr.decode(), end="")
        for path in ["/org/freedesktop/secrets", "/org/freedesktop/secrets/aliases/default", "/org/freedesktop/secrets/collection/login/a1"]:
            run = subprocess.run(["gdbus", "introspect", "--address", address, "--dest", "org.freedesktop.secrets",
                                  "--object-path", path], capture_output=True, timeout=20)
            print("== introspect %s %d" % (path, run.returncode))
            print(run.stdout.decode(), end="")
            print("-- stderr")
            print(run.stderr.decode(), end="")
        """#

    static var hasSecretTool: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/secret-tool") }

    @Test("libsecret's secret-tool over a DH session: lookup gives the secret exactly, search lists the readable items")
    func secretToolLooksUp() throws {
        try #require(Self.hasSecretTool, "make deps: libsecret-tools")
        let text = try Self.serve(try Self.store(), to: Self.secretTool)
        var sections: [String: String] = [:]
        for section in text.components(separatedBy: "== ").dropFirst() {
            let header = section.prefix { $0 != "\n" }
            sections[String(header)] = String(section.dropFirst(header.count + 1))
        }
        #expect(sections["lookup 0"]?.hasPrefix("gh-secret-- stderr\n") == true, "\(sections)")
        #expect(
            sections["lookup-32 0"]?.hasPrefix("0123456789abcdef0123456789abcdef-- stderr\n") == true, "\(sections)")
        #expect(sections["lookup-none 1"] != nil, "nothing found: exit 1\n\(sections)")
        let search = try #require(sections["search 0"], "\(sections)")
        // secret-tool names an item by its path under the collection, and prints attributes on stderr.
        #expect(
            search.contains("[/a1]\nlabel = GitHub\nsecret = gh-secret\ncreated = 2023-11-14 22:13:20\n"), "\(search)")
        #expect(search.contains("[/b2]\nlabel = GitHub bot\nsecret = 0123456789abcdef0123456789abcdef\n"))
        #expect(search.contains("attribute.user = hubot"))
        // The locked item is listed, its secret refused (IsLocked), never given.
        #expect(search.contains("[/c3]\nlabel = Locked\ncreated") && search.contains("item c3 is locked"), "\(search)")
        #expect(!search.contains("never-given") && !search.contains("gitlab"), "\(search)")
        // gdbus reads the introspection and every property it names.
        let service = try #require(sections["introspect /org/freedesktop/secrets 0"], "\(sections.keys.sorted())")
        #expect(service.contains("GetSecrets(in  ao items,") && service.contains("node collection {"), "\(service)")
        #expect(service.contains("readonly ao Collections = ['/org/freedesktop/secrets/collection/login'];"))
        let alias = try #require(sections["introspect /org/freedesktop/secrets/aliases/default 0"])
        #expect(alias.contains("readwrite s Label = 'Login';") && alias.contains("ItemCreated(o item);"), "\(alias)")
        #expect(!alias.contains("node a1"), "an alias has no children: its items are the collection's")
        let item = try #require(sections["introspect /org/freedesktop/secrets/collection/login/a1 0"])
        #expect(item.contains("readwrite a{ss} Attributes = {'service': 'github.com', 'user': 'octocat'};"), "\(item)")
        #expect(!item.contains("gh-secret"), "never the secret")
    }

    /// Python's secretstorage (its own DH session, in Python) and keyring's SecretService
    /// backend, from PyPI, reading through the default collection.
    static let secretStorage = #"""
        import secretstorage
        from keyring.backends import SecretService
        connection = secretstorage.dbus_init()
        collection = secretstorage.get_default_collection(connection)
        say("collection", "%s|%s|%d" % (collection.get_label(), collection.is_locked(), len(list(collection.get_all_items()))))
        items = list(collection.search_items({"service": "github.com", "user": "octocat"}))
        say("items", ",".join(item.item_path.rsplit("/", 1)[1] for item in items))
        say("secret", items[0].get_secret().decode())
        say("encrypted", items[0].session.encrypted)
        say("label", items[0].get_label())
        say("attributes", ",".join("%s=%s" % pair for pair in sorted(items[0].get_attributes().items())))
        locked = list(collection.search_items({"user": "locked"}))[0]
        say("locked", locked.is_locked())
        say("keyring", SecretService.Keyring().get_password("pypi.org", "alice"))
        items[0].set_label("GitHub (renamed)")
        items[0].set_attributes({"service": "github.com", "user": "octocat", "renamed": "yes"})
        renamed = list(collection.search_items({"renamed": "yes"}))
        say("renamed", "%s|%s|%s" % (len(renamed), renamed[0].get_label(), renamed[0].get_secret().decode()))
        say("keyring-none", SecretService.Keyring().get_password("pypi.org", "bob"))
        """#

    @Test("Python's secretstorage and keyring: the default collection, a search, a secret over their own DH session")
    func secretStorageAndKeyring() throws {
        let text = try Self.serve(try Self.store(), to: Self.secretStorage)
        var answers: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            answers[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        #expect(answers["collection"] == "Login|False|5", "\(text)")
        #expect(answers["items"] == "a1")
        #expect(answers["secret"] == "gh-secret")
        #expect(answers["encrypted"] == "True", "secretstorage's DH session, not plain")
        #expect(answers["label"] == "GitHub")
        #expect(answers["attributes"] == "service=github.com,user=octocat")
        #expect(answers["locked"] == "True")
        #expect(answers["keyring"] == "pypi-tokén", "keyring get, UTF-8 kept")
        #expect(answers["keyring-none"] == "None")
        #expect(
            answers["renamed"] == "1|GitHub (renamed)|gh-secret", "set_label and set_attributes, found by the new ones")
        #expect(!text.contains("never-given"))
    }

    /// Writing through libsecret (`secret-tool store`, `clear`) and Python's keyring
    /// (`set_password`, `delete_password`), each read back by the other.
    static let writers = #"""
        import subprocess
        from keyring.backends import SecretService
        # The collection's signals, heard on a connection of their own.
        listener = open_dbus_connection(bus="SESSION")
        rule = MatchRule(type="signal", interface="org.freedesktop.Secret.Collection",
                         path="/org/freedesktop/secrets/collection/login")
        listener.send_and_get_reply(message_bus.AddMatch(rule))
        heard = listener.filter(rule, bufsize=64)
        def signals():
            names = []
            while True:
                try:
                    message = listener.recv_until_filtered(heard.queue, timeout=0.5)
                except TimeoutError:
                    return " ".join(names)
                names.append(message.header.fields[HeaderFields.member] + ":" + message.body[0].rsplit("/", 1)[1])
        def tool(*arguments, secret=None):
            process = subprocess.Popen(["secret-tool"] + list(arguments), stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            out, err = process.communicate(secret, timeout=20)
            return process.pid, process.returncode, out.decode(), err.decode()
        # 48 bytes: whole blocks, so a whole block of padding.
        item = ["service", "tool.example", "username", "dave"]
        pid, status, _, err = tool("store", "--label=Tool item", *item, secret=b"stored-by-secret-tool-0123456789abcdef0123456789")
        say("store", "%d %s" % (status, err.strip()))
        say("store-lookup", tool("lookup", *item)[2])
        say("store-replace", tool("store", "--label=Tool item", *item, secret=b"replaced")[1])
        say("replaced-lookup", tool("lookup", *item)[2])
        say("keyring-reads-tool", SecretService.Keyring().get_password("tool.example", "dave"))
        backend = SecretService.Keyring()
        backend.set_password("example.org", "carol", "set-by-keyring")
        say("tool-reads-keyring", tool("lookup", "service", "example.org", "username", "carol")[2])
        backend.set_password("example.org", "carol", "changed-by-keyring")
        say("keyring-replaced", backend.get_password("example.org", "carol"))
        backend.delete_password("example.org", "carol")
        say("keyring-deleted", backend.get_password("example.org", "carol"))
        say("clear", tool("clear", *item)[1])
        say("cleared-lookup", tool("lookup", *item)[1])
        say("signals", signals())
        """#

    @Test("writing: secret-tool store, replace and clear, keyring set and delete, each read back by the other")
    func writesThroughClients() throws {
        try #require(Self.hasSecretTool, "make deps: libsecret-tools")
        let store = try Self.store()
        let text = try Self.serve(store, to: Self.writers)
        var answers: [String: String] = [:]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            if let name = parts.first { answers[name] = parts.count > 1 ? parts[1] : "" }
        }
        #expect(answers["store"] == "0 ", "\(text)")
        #expect(answers["store-lookup"] == "stored-by-secret-tool-0123456789abcdef0123456789")
        #expect(answers["store-replace"] == "0")
        #expect(answers["replaced-lookup"] == "replaced", "replace=True: the same item, a new secret")
        #expect(answers["keyring-reads-tool"] == "replaced")
        #expect(answers["tool-reads-keyring"] == "set-by-keyring")
        #expect(answers["keyring-replaced"] == "changed-by-keyring")
        #expect(answers["keyring-deleted"] == "None")
        #expect(answers["clear"] == "0")
        #expect(answers["cleared-lookup"] == "1", "cleared: nothing found")
        // Created and replaced by secret-tool (new1), by keyring (new2), then deleted.
        #expect(
            answers["signals"]
                == "ItemCreated:new1 ItemChanged:new1 ItemCreated:new2 ItemChanged:new2 ItemDeleted:new2 ItemDeleted:new1",
            "\(text)")
        // What the store holds now: the original five, the written ones gone again.
        #expect(store.items.count == 5, "\(store.items.keys.sorted())")
        // An item's creator is the process that sent CreateItem, as the bus daemon names it.
        let second = try Self.store()
        let again = try Self.serve(second, to: Self.creatorOnly)
        let pid = again.split(separator: "\n").first.flatMap { Int32($0) }
        let made = second.items.values.first { $0.label == "Made here" }
        #expect(pid != nil && made?.creator?.pid == pid, "creator \(String(describing: made?.creator)), pid \(again)")
        #expect(made?.creator?.uniqueName.hasPrefix(":") == true)
    }

    /// One item stored by secret-tool; prints its pid.
    static let creatorOnly = #"""
        import subprocess
        address = os.environ["DBUS_SESSION_BUS_ADDRESS"]
        process = subprocess.Popen(["secret-tool", "store", "--label=Made here", "made", "here"], stdin=subprocess.PIPE)
        process.communicate(b"x", timeout=20)
        print(process.pid, flush=True)
        """#

    /// Says yes after a moment, from a thread of its own, having unlocked the store: a user who
    /// typed the master password where they are.
    final class UnlockingPrompter: SecretPrompter, @unchecked Sendable {
        // @unchecked: `callers` only under `lock`; `store`'s locks are its own.
        let store: MemoryItemStore
        private let lock = Lock()
        private var asked: [SecretCaller] = []

        init(_ store: MemoryItemStore) { self.store = store }

        var callers: [SecretCaller] { lock.withLock { asked } }

        func unlock(for caller: SecretCaller, answer: @escaping @Sendable (Bool) -> Void) {
            lock.withLock { asked.append(caller) }
            let store = store
            do {
                try DetachedThread.start {
                    usleep(50_000)
                    store.unlockAll()
                    answer(true)
                }
            } catch {
                answer(false)
            }
        }
    }

    /// Nobody to ask: declines at once.
    final class NobodyPrompter: SecretPrompter, @unchecked Sendable {
        func unlock(for caller: SecretCaller, answer: @escaping @Sendable (Bool) -> Void) { answer(false) }
    }

    /// secret-tool's lookup of a locked item (libsecret answers the prompt itself), then the
    /// same by hand: Unlock, Prompt, and the prompt's Completed heard by a listener.
    static let prompting = #"""
        import subprocess
        listener = open_dbus_connection(bus="SESSION")
        rule = MatchRule(type="signal", interface="org.freedesktop.Secret.Prompt")
        listener.send_and_get_reply(message_bus.AddMatch(rule))
        heard = listener.filter(rule, bufsize=16)
        run = subprocess.run(["secret-tool", "lookup", "service", "github.com", "user", "octocat"], capture_output=True, timeout=20)
        say("lookup", "%d %s" % (run.returncode, run.stdout.decode()))
        unlocked, prompt = service("Unlock", "ao", [COLLECTION + "/c3"])
        say("unlock", "%d %s" % (len(unlocked), "a-prompt" if prompt.startswith(SERVICE + "/prompt/") else prompt))
        if prompt != "/":
            while True:  # what libsecret's prompt left, if anything
                try:
                    listener.recv_until_filtered(heard.queue, timeout=0.2)
                except TimeoutError:
                    break
            call(prompt, "org.freedesktop.Secret.Prompt", "Prompt", "s", "")
            message = listener.recv_until_filtered(heard.queue, timeout=5)
            dismissed, (signature, result) = message.body
            say("completed", "%s %s %s" % (dismissed, signature, ",".join(r.rsplit("/", 1)[1] for r in result) or "-"))
        """#

    @Test(
        "a locked store and a prompter that unlocks: secret-tool's lookup goes through the Prompt and gets the secret")
    func promptUnlocks() throws {
        try #require(Self.hasSecretTool, "make deps: libsecret-tools")
        let store = try Self.store()
        store.locked = Set(store.items.keys)
        store.collectionLocked = true
        let prompter = UnlockingPrompter(store)
        let text = try Self.serve(store, prompter: prompter, to: Self.prompting)
        #expect(text.contains("lookup 0 gh-secret\n"), "\(text)")
        #expect(prompter.callers.count == 1, "asked once: \(prompter.callers)")
        #expect(prompter.callers.first?.pid != nil && prompter.callers.first?.uniqueName.hasPrefix(":") == true)
        // Unlocked since: c3 too (the store unlocks whole), no prompt needed.
        #expect(text.contains("unlock 1 /\n"), "\(text)")
    }

    @Test("a locked store and nobody to ask: secret-tool gets nothing; a prompt by hand completes dismissed")
    func promptDismissed() throws {
        try #require(Self.hasSecretTool, "make deps: libsecret-tools")
        let store = try Self.store()
        store.locked = Set(store.items.keys)
        store.collectionLocked = true
        let text = try Self.serve(store, prompter: NobodyPrompter(), to: Self.prompting)
        #expect(text.contains("lookup 1 \n"), "nothing found, nothing given: \(text)")
        #expect(text.contains("unlock 0 a-prompt\n"), "\(text)")
        #expect(text.contains("completed True ao -\n"), "\(text)")
        #expect(!text.contains("gh-secret") && !text.contains("never-given"))
    }

    @Test("without DBUS_SESSION_BUS_ADDRESS: the error says where a bus comes from; a dead address is named")
    func noBus() throws {
        #expect(throws: SecretServiceError.noSessionBus) {
            try SecretServiceServer.run(in: Environment([:]), store: MemoryItemStore()) { false }
        }
        let directory = TemporaryDirectory("secret-service")
        let socket = try directory.freshPath("no-bus")
        do {
            try SecretServiceServer.run(address: "unix:path=\(socket)", store: MemoryItemStore()) { false }
            Issue.record("connected to nothing")
        } catch {
            guard case .cannotConnect(let address, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(address == "unix:path=\(socket)")
            #expect("\(error)".contains("is its dbus-daemon running?"))
        }
    }
}
