import FoundationEssentials
import Platform
import VaultCrypto
import VaultModel

/// Reads a whole export file into protected memory: it is full of passwords, and a `[UInt8]` or
/// `Data` would leave them in ordinary heap memory after it is freed.
enum ProtectedFile {
    /// The largest file read: what the largest vault holds. An export bigger than that could not
    /// be imported anyway, and reading it whole would only exhaust memory.
    static let limit = Limits.vaultPayloadBytes

    static func read(_ path: String, limit: Int = limit) throws -> SecureBytes {
        // Non-blocking, so that a FIFO given by mistake is refused instead of waited on.
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, [.readOnly, .noControllingTerminal, .nonBlocking])
        } catch {
            throw ImportFailure(file: path, error.isNoSuchEntry ? "no such file" : "cannot be opened (\(error))")
        }
        defer { fd.close() }
        do {
            let status = try fd.status()
            guard status.kind == .regular else { throw ImportFailure(file: path, "is not a regular file") }
            guard status.size <= limit else { throw tooLarge(path, size: status.size, limit: limit) }
            // The file may grow while it is read.
            return try readAll(fd, expected: status.size, limit: limit) { tooLarge(path, size: $0, limit: limit) }
        } catch let failure as ImportFailure {
            throw failure
        } catch {
            throw ImportFailure(file: path, "cannot be read (\(error))")
        }
    }

    /// Everything `fd` gives until its end, into protected memory; `overLimit` (given the size
    /// reached) is thrown past `limit` bytes. Files and gpg's pipe alike.
    static func readAll(_ fd: FileDescriptor, expected: Int = 4096, limit: Int,
                        overLimit: (Int) -> ImportFailure) throws -> SecureBytes {
        var bytes = try SecureBytes(capacity: max(expected, 1))
        var chunk = try SecureBytes(zeros: 64 * 1024)
        while true {
            let count = try chunk.withUnsafeMutableBytes { buffer in try fd.readSome(into: buffer) }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { throw overLimit(bytes.count + count) }
            try chunk.withUnsafeBytes { try bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }

    private static func tooLarge(_ path: String, size: Int, limit: Int) -> ImportFailure {
        ImportFailure(file: path, "is \(size) bytes; pwtui reads at most \(limit) bytes (\(limit / 1_048_576) MiB, the most one vault can hold)")
    }
}
