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

    /// Whether the file at `path` holds exactly `expected`, read a chunk at a time: the read-back
    /// check of a save, which so never holds a second copy of the vault's image (issue 23: the
    /// image and the whole file read back were 110 MB each in a 100 MB import). A file that is
    /// missing, shorter, longer (read to its end, not only to `expected.count`) or different in
    /// any byte does not match.
    static func holds(_ path: String, exactly expected: UnsafeRawBufferPointer) throws -> Bool {
        let opened: (FileDescriptor, FileStatus)?
        do { opened = try RegularFile.openIfPresent(path) } catch { throw VaultError(error) }
        guard let (fd, info) = opened else { return false }
        defer { fd.close() }
        guard info.size == expected.count else { return false }
        // The file's bytes are ciphertext (and the header), nothing secret: an ordinary buffer.
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 8)
        defer { chunk.deallocate() }
        var compared = 0
        while true {
            let got: Int
            do { got = try fd.readSome(into: chunk) } catch {
                throw VaultError.io(path: path, operation: "reading", errno: error.code)
            }
            if got == 0 { return compared == expected.count }
            guard got <= expected.count - compared,
                UnsafeRawBufferPointer(rebasing: chunk[0 ..< got]).elementsEqual(expected[compared ..< compared + got])
            else {
                return false
            }
            compared += got
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
        case .system(let path, let operation, let error):
            self = .io(path: path, operation: operation, errno: error.code)
        }
    }
}
