import Platform

/// VaultModel's reads through Platform's one funnel (`RegularFile`: non-blocking, regular files
/// only), its failures told as `VaultError`s so that everything leaving VaultModel is one.
enum StoredFile {
    /// The file's bytes, or nil when it does not exist. `prefix`: only the first `prefix` bytes
    /// (a header); otherwise the whole file, however large (the vault has no other bound).
    static func readIfPresent(_ path: String, prefix: Int? = nil, limit: Int = .max) throws -> [UInt8]? {
        do {
            if let prefix { return try RegularFile.readIfPresent(path, limit: prefix, prefix: true) }
            return try RegularFile.readIfPresent(path, limit: limit)
        } catch {
            throw VaultError(error)
        }
    }

    /// Refuses anything but a regular file (after links), naming what it is instead.
    static func require(_ info: FileStatus, path: String) throws {
        do { try RegularFile.require(info, path: path) } catch { throw VaultError(error) }
    }
}

extension VaultError {
    /// The funnel's refusal as the vault's: what is there is not a file (`notAFile`), or reading
    /// it failed (`io`, the vault unchanged).
    init(_ failure: RegularFile.Failure) {
        switch failure {
        case .notRegular(let path, let kind): self = .notAFile(path: path, kind: kind)
        case .symbolicLink(let path): self = .notAFile(path: path, kind: "a symbolic link")
        case .tooLarge(let path, let limit): self = .corrupt(path: path, reason: "it is larger than \(limit) bytes")
        case .system(let path, let operation, let error): self = .io(path: path, operation: operation, errno: error.code)
        }
    }
}
