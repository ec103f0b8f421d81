import Foundation

/// A directory of the test's own under the system temporary directory, removed with everything
/// in it when the test lets go of it: hold it in the suite (`let temporary = TemporaryDirectory()`,
/// one per test, as Swift Testing makes a suite value per test) or in a local for the whole test.
/// `PWTUI_KEEP_TEST_DIRS` keeps it, to look at after a failure, as the command-line tests'
/// sandboxes do. Nothing is created until a path is asked for.
package final class TemporaryDirectory: @unchecked Sendable {
    // @unchecked: immutable; it belongs to the one test that made it.
    package let path: String

    package init(_ label: String = "tests") {
        path = NSTemporaryDirectory() + "pwtui-\(label)-" + UUID().uuidString
    }

    /// `name` inside a new directory of its own in this one: each vault alone in its directory, as
    /// the save protocol expects, however many a test makes.
    package func freshPath(_ name: String) throws -> String {
        let directory = path + "/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory + "/" + name
    }

    deinit {
        if ProcessInfo.processInfo.environment["PWTUI_KEEP_TEST_DIRS"] == nil {
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
