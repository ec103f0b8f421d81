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

    @Test("keyring's own backend conformance tests (BackendBasicTests) pass against the service")
    func keyringConformance() throws {
        let text = try SecretServiceUnderTest.serve(to: Self.keyringConformance)
        #expect(text.contains("pytest-status 0"), "\(text)")
        #expect(text.contains("PASSED") && text.contains("test_unicode_and_ascii_chars"), "\(text)")
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

    @Test("secretstorage's own test suite passes against the service; it skips only its mock server's tests")
    func secretStorageSuite() throws {
        let text = try SecretServiceUnderTest.serve(
            to: Self.secretStorageSuite, arguments: [TestPython.secretStorageTests])
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
}
