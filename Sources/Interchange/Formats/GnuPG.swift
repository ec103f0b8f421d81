import Foundation
import Platform
import VaultCrypto

/// The user's `gpg`, run once per pass entry: its agent and pinentry ask for the key's
/// passphrase as they do for `pass show`. The plaintext is read from the pipe straight into
/// protected memory (Foundation's `readDataToEndOfFile` would leave it in a `Data`).
enum GnuPG {
    static let decrypt: PassStore.Decrypter = { path in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gpg", "--quiet", "--yes", "--decrypt", "--", path]
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = errors
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            try process.run()
        } catch {
            throw ImportFailure("gpg could not be run (\(error)); pass stores are decrypted with gpg: apt install gnupg")
        }
        let plaintext = try ProtectedFile.readAll(FileDescriptor(rawValue: output.fileHandleForReading.fileDescriptor),
                                                  limit: 4 * 1024 * 1024) { _ in ImportFailure("decrypts to more than 4 MiB; not a pass entry") }
        // gpg's own messages are not secret: the first line says why it failed.
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        exited.wait()
        guard process.terminationStatus == 0 else {
            let reason = message.split(separator: "\n").last.map(String.init) ?? "exit status \(process.terminationStatus)"
            throw ImportFailure("gpg could not decrypt it: \(reason)")
        }
        return plaintext
    }
}
