// Real clients' own test suites and a real browser against the Secret Service, each on a
// private session bus (`SecretServiceUnderTest.serve`, the service real clients meet):
// keyring's backend conformance tests and secretstorage's test suite from its sdist, both from
// PyPI into the tests' Python environment (`make python-tests`), and headless Chromium keeping
// its cookie key there.

import Foundation
import Platform
import PwtuiTestSupport
import SecretService
import Testing

@Suite struct SecretServiceClientTests {
    /// libsecret's `secret-tool`: store (twice: the second replaces), lookup, search, clear.
    static let secretTool = #"""
        import subprocess
        def tool(*arguments, secret=None):
            run = subprocess.run(["secret-tool"] + list(arguments), input=secret, capture_output=True, timeout=30)
            return "%d %s" % (run.returncode, run.stdout.decode())
        item = ["service", "tool.example", "username", "dave"]
        # 48 bytes: whole blocks, so a whole block of padding in the DH session.
        say("store", tool("store", "--label=Tool item", *item, secret=b"stored-by-secret-tool-0123456789abcdef0123456789"))
        say("lookup", tool("lookup", *item))
        say("replace", tool("store", "--label=Tool item", *item, secret=b"replaced"))
        say("lookup-replaced", tool("lookup", *item))
        say("other", tool("store", "--label=Other", "service", "other.example", secret=b"other"))
        search = tool("search", "--all", "service", "tool.example")
        say("search", search.replace("\n", "/"))
        say("clear", tool("clear", *item))
        say("lookup-cleared", tool("lookup", *item))
        say("lookup-other", tool("lookup", "service", "other.example"))
        """#

    @Test("secret-tool (libsecret) stores, replaces, looks up, searches and clears through the service")
    func secretTool() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/secret-tool"), "make deps: libsecret-tools")
        let text = try SecretServiceUnderTest.serve(to: Self.secretTool)
        var answers: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            answers[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        #expect(answers["store"] == "0 ", "\(text)")
        #expect(answers["lookup"] == "0 stored-by-secret-tool-0123456789abcdef0123456789", "\(text)")
        #expect(answers["replace"] == "0 ")
        #expect(answers["lookup-replaced"] == "0 replaced", "replace: the same item, a new secret")
        let search = try #require(answers["search"])
        #expect(search.hasPrefix("0 [/"), "\(text)")
        #expect(search.contains("/label = Tool item/secret = replaced/"), "one item, the replaced one: \(text)")
        #expect(search.components(separatedBy: "label = ").count == 2, "no second item: \(text)")
        #expect(answers["clear"] == "0 ")
        #expect(answers["lookup-cleared"] == "1 ", "cleared: nothing found")
        #expect(answers["lookup-other"] == "0 other", "the other item kept")
    }

    /// secret-tool stores three items (one 48 bytes, one empty), or looks them up.
    static let storeOrLookUp = #"""
        import subprocess
        items = [("one", b"first secret"), ("two", b"stored-by-secret-tool-0123456789abcdef0123456789"), ("three", b"")]
        for name, secret in items:
            if sys.argv[2] == "store":
                run = subprocess.run(["secret-tool", "store", "--label=Kept " + name, "kept", name], input=secret,
                                     capture_output=True, timeout=30)
            else:
                run = subprocess.run(["secret-tool", "lookup", "kept", name], capture_output=True, timeout=30)
            say(name, "%d %s" % (run.returncode, run.stdout.hex() if sys.argv[2] == "lookup" else ""))
        """#

    @Test("restarts keep every item: stored through one service, read through another after the agent restarted")
    func restartsKeepItems() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/secret-tool"), "make deps: libsecret-tools")
        let home = try SecretServiceUnderTest.BinaryHome()
        let stored = try SecretServiceUnderTest.serve(.binary(home), to: Self.storeOrLookUp, arguments: ["store"])
        #expect(stored == "one 0 \ntwo 0 \nthree 0 \n", "\(stored)")
        // The first service ended with its bus; now the agent too, so the items come from the vault file.
        try home.restartAgent()
        let read = try SecretServiceUnderTest.serve(.binary(home), to: Self.storeOrLookUp, arguments: ["lookup"])
        let hex = { (text: String) in text.utf8.map { String(format: "%02x", $0) }.joined() }
        #expect(
            read
                == "one 0 \(hex("first secret"))\ntwo 0 \(hex("stored-by-secret-tool-0123456789abcdef0123456789"))\nthree 0 \n",
            "\(read)")
    }

    /// Where a whole suite of a client's runs: the server alone (in this process, a store in
    /// memory), and the real binary with the vault behind it.
    enum Target: String, CaseIterable, Sendable {
        case inProcess, binary

        var kind: SecretServiceUnderTest.Kind {
            switch self {
            case .inProcess: .inProcess(MemoryItemStore())
            case .binary: .binary()
            }
        }
    }

    /// keyring's own conformance tests for a backend (`keyring.testing.backend.BackendBasicTests`),
    /// run under pytest through keyring's SecretService backend.
    static let keyringConformance = #"""
        import tempfile
        import pytest
        sys.dont_write_bytecode = True
        directory = tempfile.mkdtemp()
        with open(os.path.join(directory, "test_pwtui_backend.py"), "w") as f:
            f.write(
                "from keyring.testing.backend import BackendBasicTests\n"
                "from keyring.backends import SecretService\n"
                "class TestPwtuiSecretService(BackendBasicTests):\n"
                "    def init_keyring(self):\n"
                "        return SecretService.Keyring()\n")
        status = pytest.main([directory, "-q", "-p", "no:cacheprovider", "-rA"])
        print("pytest-status", int(status), flush=True)
        """#

    @Test(
        "keyring's own backend conformance tests (BackendBasicTests) pass against the service",
        arguments: Target.allCases)
    func keyringConformance(_ target: Target) throws {
        let text = try SecretServiceUnderTest.serve(target.kind, to: Self.keyringConformance)
        #expect(text.contains("pytest-status 0"), "\(text)")
        #expect(text.contains("PASSED") && text.contains("test_credential"), "\(text)")
        #expect(!text.contains("FAILED") && !text.contains("ERROR"), "\(text)")
        #expect(text.contains("15 passed in"), "every one of the 15 tests ran and passed: \(text)")
    }

    /// secretstorage's own test suite (its sdist's `tests/`), under pytest, against the service
    /// by its real name. The suite itself skips the classes it writes for its mock server alone
    /// (`BUS_NAME == "org.freedesktop.secrets"`: creating and deleting collections, collections
    /// at other paths, a lock by prompt); everything else runs.
    static let secretStorageSuite = #"""
        import pytest
        sys.dont_write_bytecode = True
        status = pytest.main([sys.argv[2], "-p", "no:cacheprovider", "-rA", "-v"])
        print("pytest-status", int(status), flush=True)
        """#

    @Test(
        "secretstorage's own test suite passes against the service; it skips only its mock server's tests",
        arguments: Target.allCases)
    func secretStorageSuite(_ target: Target) throws {
        let text = try SecretServiceUnderTest.serve(
            target.kind, to: Self.secretStorageSuite, arguments: [TestPython.secretStorageTests])
        #expect(text.contains("pytest-status 0"), "\(text)")
        #expect(!text.contains("FAILED") && !text.contains("ERROR"), "\(text)")
        // What runs: the collection's label set and put back, items made, searched, relabelled,
        // their secrets set (bytes and text), times, a double delete refused, no such alias.
        for test in [
            "CollectionTest::test_label", "CollectionTest::test_create_empty_item", "ItemTest::test_secret",
            "ItemTest::test_modified", "ItemTest::test_created", "ExceptionsTest::test_double_deleting",
            "ExceptionsTest::test_non_existing_collection", "ContextManagerTest::test_closing_context_manager",
        ] {
            #expect(text.contains("\(test) PASSED"), "\(test): \(text)")
        }
        // What it skips itself, and nothing else.
        let skipped = text.split(separator: "\n").filter { $0.hasPrefix("SKIPPED") }
        #expect(
            skipped.allSatisfy { $0.contains("This test should only be run with the mocked server.") },
            "\(skipped)")
        #expect(text.contains("21 passed, 6 skipped in"), "\(text)")
    }

    /// Headless Chromium with `--password-store=gnome-libsecret` and a profile of its own, twice:
    /// the first run visits a page on a local HTTP server that sets a cookie, the second one that
    /// prints `document.cookie`. Between and after, what the service holds and what the cookie
    /// database holds.
    static let chromium = #"""
        import http.server, sqlite3, subprocess, threading
        import secretstorage
        class Page(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = b"<html><body><script>document.body.textContent = 'cookie[' + document.cookie + ']'</script></body></html>"
                self.send_response(200)
                if self.path == "/set":
                    self.send_header("Set-Cookie", "flavour=oatmeal; Max-Age=3600; Path=/")
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def log_message(self, *arguments):
                pass
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        profile = sys.argv[2]
        def chromium(path):
            # No GPU headless; no sandbox as root (Chromium refuses to start one for root).
            flags = ["--headless", "--disable-gpu", "--password-store=gnome-libsecret", "--user-data-dir=" + profile,
                     "--no-first-run", "--dump-dom"] + (["--no-sandbox"] if os.geteuid() == 0 else [])
            run = subprocess.run(["chromium"] + flags + ["http://127.0.0.1:%d%s" % (server.server_port, path)],
                                 capture_output=True, timeout=120)
            if run.returncode != 0:
                sys.stderr.write(run.stderr.decode(errors="replace")[-3000:])
            return run.returncode, run.stdout.decode().strip()
        connection = secretstorage.dbus_init()
        def keys():
            items = list(secretstorage.get_default_collection(connection).get_all_items())
            return ["%s|%s|%s" % (item.get_label(), ",".join("%s=%s" % pair for pair in sorted(item.get_attributes().items())),
                                  item.get_secret().hex()) for item in items]
        def cookies():
            database = sqlite3.connect("file:%s/Default/Cookies?mode=ro" % profile, uri=True)
            rows = database.execute("SELECT name, value, encrypted_value FROM cookies WHERE host_key = '127.0.0.1'").fetchall()
            database.close()
            return " ".join("%s:%s:%s" % (name, value or "-", bytes(encrypted[:3]).decode(errors="replace")) for name, value, encrypted in rows)
        say("first", "%d %s" % chromium("/set"))
        first = keys()
        say("keys-after-first", len(first))
        say("key", first[0].rsplit("|", 1)[0] if first else "-")
        say("key-length", len(bytes.fromhex(first[0].rsplit("|", 1)[1])) if first else 0)
        say("cookies", cookies())
        say("second", "%d %s" % chromium("/read"))
        second = keys()
        say("keys-after-second", len(second))
        say("same-key", first == second)
        say("cookies-after-second", cookies())
        """#

    @Test(
        "headless Chromium keeps its cookie key (Chromium Safe Storage) in the service: v11 cookies, read back with the same key on a second run"
    )
    func chromiumSafeStorage() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"), "make deps: chromium")
        let directory = TemporaryDirectory("chromium")
        let profile = try directory.freshPath("profile")
        let text = try SecretServiceUnderTest.serve(to: Self.chromium, arguments: [profile])
        var answers: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            answers[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        #expect(answers["first"]?.hasPrefix("0 <html>") == true, "\(text)")
        #expect(answers["first"]?.contains("cookie[flavour=oatmeal]") == true, "the page saw its cookie: \(text)")
        #expect(answers["keys-after-first"] == "1", "one key, made by Chromium: \(text)")
        #expect(
            answers["key"]
                == "Chromium Safe Storage|application=chromium,xdg:schema=chrome_libsecret_os_crypt_password_v2",
            "\(text)")
        #expect(Int(answers["key-length"] ?? "") ?? 0 >= 16, "\(text)")
        // v11: encrypted with the key from the Secret Service (v10 is Chromium's fixed fallback key).
        #expect(answers["cookies"] == "flavour:-:v11", "\(text)")
        #expect(answers["second"]?.contains("cookie[flavour=oatmeal]") == true, "read back with the same key: \(text)")
        #expect(answers["keys-after-second"] == "1", "no second key: \(text)")
        #expect(answers["same-key"] == "True", "\(text)")
        #expect(answers["cookies-after-second"] == "flavour:-:v11", "\(text)")
    }
}
