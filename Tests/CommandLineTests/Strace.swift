import Foundation
import Testing

extension Binaries {
    /// strace, which the tests that delay or log a command's system calls need; where it is
    /// missing they fail saying how to install it rather than skip.
    static func requireStrace(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try #require(
            ["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "strace is not installed (apt-get install strace, or `make deps`)", sourceLocation: sourceLocation)
    }
}
