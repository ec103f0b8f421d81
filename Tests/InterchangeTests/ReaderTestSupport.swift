import Testing
@testable import Interchange
import VaultModel

/// What the reader tests share: running a reader on test bytes, reading values back, and
/// asserting a failure's place. (Tests may hold secrets in ordinary arrays and strings.)
typealias Reader<Output> = (UnsafeRawBufferPointer, SecretArena) throws(ImportFailure) -> Output

/// Runs `reader` on `bytes`; returns what it read and the arena its values are in.
func read<Output>(_ bytes: [UInt8], with reader: Reader<Output>) throws -> (Output, SecretArena) {
    let arena = try SecretArena()
    let output = try bytes.withUnsafeBytes { (raw) throws(ImportFailure) in try reader(raw, arena) }
    return (output, arena)
}

func read<Output>(_ text: String, with reader: Reader<Output>) throws -> (Output, SecretArena) {
    try read(Array(text.utf8), with: reader)
}

/// The failure `reader` throws on `bytes`, or nil when it reads them.
func failure<Output>(_ bytes: [UInt8], with reader: Reader<Output>) throws -> ImportFailure? {
    let arena = try SecretArena()
    return bytes.withUnsafeBytes { raw -> ImportFailure? in
        do throws(ImportFailure) {
            _ = try reader(raw, arena)
            return nil
        } catch {
            return error
        }
    }
}

/// Expects `reader` to refuse `bytes` at `line` and `column` for a reason containing `reason`,
/// and never to quote `secret` (a stand-in for a password in the input).
func expectFailure<Output>(
    _ bytes: [UInt8], with reader: Reader<Output>, line: Int?, column: Int?,
    _ reason: String, notQuoting secret: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    guard let failure = try failure(bytes, with: reader) else {
        Issue.record("expected a failure (\(reason)), the input was read", sourceLocation: sourceLocation)
        return
    }
    #expect(failure.line == line, "line of: \(failure)", sourceLocation: sourceLocation)
    #expect(failure.column == column, "column of: \(failure)", sourceLocation: sourceLocation)
    #expect(failure.reason.contains(reason), "reason of: \(failure)", sourceLocation: sourceLocation)
    if let secret {
        #expect(!failure.description.contains(secret), "quotes the input: \(failure)", sourceLocation: sourceLocation)
    }
}

func expectFailure<Output>(
    _ text: String, with reader: Reader<Output>, line: Int?, column: Int?,
    _ reason: String, notQuoting secret: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    try expectFailure(
        Array(text.utf8), with: reader, line: line, column: column, reason,
        notQuoting: secret, sourceLocation: sourceLocation)
}

extension SecretArena {
    /// A value read back as text, for comparison.
    func text(_ reference: SecretReference) -> String {
        withBytes(of: reference) { String(decoding: $0, as: UTF8.self) }
    }
}

let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
