import Foundation

/// Small state and settings files: a temporary file in the same directory, mode 0600, then
/// rename over the old one, so a reader sees the old or the new file, never half of one.
enum AtomicFile {
    static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).tmp-\(UUID().uuidString)")
            guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
                throw VaultError.io(path: temporary.path, operation: "writing", errno: errno)
            }
            if rename(temporary.path, path) != 0 {
                let code = errno
                try? FileManager.default.removeItem(at: temporary)
                throw VaultError.io(path: path, operation: "replacing", errno: code)
            }
        } catch let error as VaultError {
            throw error
        } catch {
            throw VaultError.io(path: path, operation: "writing", errno: Int32((error as NSError).code))
        }
    }
}
