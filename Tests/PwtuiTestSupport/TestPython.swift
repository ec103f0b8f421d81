import Glibc

/// The Python that tests run their clients in: the virtual environment `make test` makes from
/// PyPI (`make python-tests`: Tests/PythonClients/make-python-env.sh, the pinned
/// python-requirements.txt beside it), so every test runs the same secretstorage, keyring,
/// jeepney, pytest and cryptography, whatever the system's Python holds.
package enum TestPython {
    /// The package's root, found from this file's path (the tests run from anywhere).
    package static let packageRoot: String = {
        var path = #filePath
        for _ in 0 ..< 3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()

    /// Where `make python-tests` makes it.
    package static let directory = packageRoot + "/.build/python-tests"
    /// The environment's interpreter.
    package static let interpreter = directory + "/venv/bin/python3"
    /// secretstorage's own test suite, from its source distribution.
    package static let secretStorageTests = directory + "/secretstorage-tests"

    /// Whether the environment is made (its last step leaves `ready`).
    package static var isReady: Bool { access(directory + "/ready", F_OK) == 0 }

    /// What a test that needs it says when it is not.
    package static let missing = "no Python environment at \(directory): run `make python-tests` (make test does)"
}
