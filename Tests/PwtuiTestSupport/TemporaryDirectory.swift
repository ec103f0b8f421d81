import Foundation

/// A fresh directory under the system temporary directory, removed with everything in it when
/// the test lets go of it (keep the value in a local for the whole test). `PWTUI_KEEP_TEST_DIRS`
/// keeps it, to look at after a failure, as the command-line tests' sandboxes do.
package final class TemporaryDirectory: @unchecked Sendable {
    // @unchecked: immutable once made; it belongs to the one test that made it.
    package let path: String

    package init(_ label: String = "tests") throws {
        path = NSTemporaryDirectory() + "pwtui-\(label)-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// `name` inside the directory.
    package func appending(_ name: String) -> String {
        path + "/" + name
    }

    /// `name` inside a new directory of its own in this one, for a test that makes several files
    /// of the same name (several vaults, each alone in its directory as the save protocol expects).
    package func freshPath(_ name: String) throws -> String {
        let directory = appending(UUID().uuidString)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        return directory + "/" + name
    }

    deinit {
        if ProcessInfo.processInfo.environment["PWTUI_KEEP_TEST_DIRS"] == nil {
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
