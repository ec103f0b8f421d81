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
        var bytes: SecureBytes
        do {
            // Empty: the funnel makes room for what the file holds, once it knows.
            bytes = try SecureBytes(capacity: 0)
        } catch {
            throw ImportFailure(file: path, "cannot be read (\(error))")
        }
        // Through Platform's funnel, straight into protected memory: a FIFO or a device given by
        // mistake is refused, not waited on; one past the limit is refused before it is read,
        // and one that grows past it while read, when it does.
        let found: Bool
        do {
            found = try RegularFile.readIfPresent(path, into: &bytes, limit: limit)
        } catch {
            if case .tooLarge(_, let size, _) = error { throw tooLarge(path, size: size, limit: limit) }
            throw ImportFailure(error)
        }
        guard found else { throw ImportFailure(file: path, "no such file") }
        return bytes
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
        case .tooLarge(let path, _, let limit): self.init(file: path, "is larger than \(limit) bytes; not read")
        case .system(let path, let operation, let error): self.init(file: path, "\(operation) it failed (\(error))")
        }
    }
}
