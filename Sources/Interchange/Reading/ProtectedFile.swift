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
        // Through Platform's funnel: a FIFO or a device given by mistake is refused, not waited on.
        let fd: FileDescriptor, status: FileStatus
        do {
            guard let opened = try RegularFile.openIfPresent(path) else {
                throw ImportFailure(file: path, "no such file")
            }
            (fd, status) = opened
        } catch let failure as RegularFile.Failure {
            throw ImportFailure(failure)
        }
        defer { fd.close() }
        do {
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
    /// `deadline`: a reader that may never finish (gpg) is given up on then (`SystemError.timedOut`).
    static func readAll(
        _ fd: FileDescriptor, expected: Int = 4096, limit: Int, deadline: Deadline? = nil,
        overLimit: (Int) -> ImportFailure
    ) throws -> SecureBytes {
        var bytes = try SecureBytes(capacity: max(expected, 1))
        var chunk = try SecureBytes(zeros: 64 * 1024)
        while true {
            let count = try chunk.withUnsafeMutableBytes { buffer in
                if let deadline { return try fd.readSome(into: buffer, before: deadline) }
                return try fd.readSome(into: buffer)
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { throw overLimit(bytes.count + count) }
            try chunk.withUnsafeBytes { try bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }

    private static func tooLarge(_ path: String, size: Int, limit: Int) -> ImportFailure {
        ImportFailure(
            file: path,
            "is \(size) bytes; pwtui reads at most \(limit) bytes (\(limit / 1_048_576) MiB, the most one vault can hold)"
        )
    }
}

extension ImportFailure {
    /// The funnel's refusal of an export or an entry file, naming the file.
    init(_ failure: RegularFile.Failure) {
        switch failure {
        case .notRegular(let path, let kind): self.init(file: path, "is \(kind), not a regular file; not read")
        case .symbolicLink(let path): self.init(file: path, "is a symbolic link; not followed")
        case .tooLarge(let path, let limit): self.init(file: path, "is larger than \(limit) bytes; not read")
        case .system(let path, let operation, let error): self.init(file: path, "\(operation) it failed (\(error))")
        }
    }
}
