import Glibc
import Platform

/// What a helper program (python3, bzcat) printed on stdout, and how it ended: started through
/// `Platform.ChildProcess`, the one way the project starts a child, in tests as in pwtui.
package struct ProgramOutput {
    package let bytes: [UInt8]
    package let ending: ChildProcess.Ending

    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Runs `program` (looked up in PATH) with `arguments` to its end; stdin and stderr are
    /// /dev/null and the test's own stderr.
    package init(_ program: String, _ arguments: [String]) throws {
        let child = try ChildProcess.start(program, arguments, output: .pipe, errors: .inherited)
        guard let output = child.output else { throw SystemError(code: EIO) }
        defer { output.close() }
        bytes = try output.readToEnd()
        ending = child.wait()
    }
}
