import FoundationEssentials
import Platform
import VaultCrypto

/// The user's `gpg`, run once per pass entry: its agent and pinentry ask for the key's
/// passphrase as they do for `pass show`. The plaintext is read from the pipe straight into
/// protected memory (Foundation's `readDataToEndOfFile` would leave it in a `Data`).
enum GnuPG {
    static let decrypt: PassStore.Decrypter = { path in
        let gpg: ChildProcess
        do {
            gpg = try ChildProcess.start("gpg", ["--quiet", "--yes", "--decrypt", "--", path], output: .pipe, errors: .pipe)
        } catch {
            throw ImportFailure("gpg could not be run (\(error)); pass stores are decrypted with gpg: apt install gnupg")
        }
        guard let output = gpg.output, let errors = gpg.errors else { throw ImportFailure("gpg's output was not connected") }
        let plaintext: SecureBytes
        do {
            plaintext = try ProtectedFile.readAll(output, limit: 4 * 1024 * 1024) { _ in ImportFailure("decrypts to more than 4 MiB; not a pass entry") }
        } catch {
            // Closed before waiting: gpg, still writing, gets EPIPE and ends.
            output.close()
            errors.close()
            _ = gpg.wait()
            throw error
        }
        output.close()
        // gpg's own messages are not secret: the last line says why it failed.
        let message = String(decoding: (try? errors.readToEnd()) ?? [], as: UTF8.self)
        errors.close()
        let ending = gpg.wait()
        guard ending.succeeded else {
            let reason = message.split(separator: "\n").last.map(String.init) ?? "\(ending)"
            throw ImportFailure("gpg could not decrypt it: \(reason)")
        }
        return plaintext
    }
}
