import FoundationEssentials
import Platform
import VaultCrypto

/// The user's `gpg`, run once per pass entry: its agent and pinentry ask for the key's
/// passphrase as they do for `pass show`. The plaintext is read from the pipe straight into
/// protected memory (Foundation's `readDataToEndOfFile` would leave it in a `Data`).
///
/// gpg is given the entry as its standard input, opened here through Platform's funnel: only a
/// regular file of the store reaches it (a FIFO, or a link to `/dev/zero` or a FIFO, would have it
/// wait or read forever), and what it reads is the file that was checked. It has `timeLimit` to
/// answer, which leaves time to type a passphrase into pinentry once, and is killed after that.
enum GnuPG {
    static let timeLimit: Duration = .seconds(120)

    static let decrypt: PassStore.Decrypter = { path in
        let entry: FileDescriptor
        do {
            guard let (fd, _) = try RegularFile.openIfPresent(path) else { throw ImportFailure("has disappeared") }
            entry = fd
        } catch let failure as RegularFile.Failure {
            var unnamed = ImportFailure(failure)
            unnamed.file = nil  // PassStore names the entry
            throw unnamed
        }
        defer { entry.close() }
        let gpg: ChildProcess
        do {
            gpg = try ChildProcess.start(
                "gpg", ["--quiet", "--yes", "--decrypt"], input: .descriptor(entry), output: .pipe, errors: .pipe)
        } catch {
            throw ImportFailure(
                "gpg could not be run (\(error)); pass stores are decrypted with gpg: apt install gnupg")
        }
        guard let output = gpg.output, let errors = gpg.errors else {
            throw ImportFailure("gpg's output was not connected")
        }
        let plaintext: SecureBytes
        do {
            plaintext = try ProtectedFile.readAll(output, limit: 4 * 1024 * 1024, deadline: .after(timeLimit)) { _ in
                ImportFailure("decrypts to more than 4 MiB; not a pass entry")
            }
        } catch {
            // Closed before waiting: gpg, still writing, gets EPIPE and ends; one past its time
            // limit is killed.
            if let timeout = error as? SystemError, timeout.isTimeout { gpg.kill() }
            output.close()
            errors.close()
            _ = gpg.wait()
            if let timeout = error as? SystemError, timeout.isTimeout {
                throw ImportFailure(
                    "gpg did not finish within \(timeLimit.components.seconds) seconds (waiting for a passphrase, "
                        + "or for input that never ends); it was stopped")
            }
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
