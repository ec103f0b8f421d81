import Interchange
import VaultCrypto
import VaultModel

/// What docker and podman send a credential helper's `store`: `{"ServerURL": …, "Username": …,
/// "Secret": …}` (docker-credential-helpers' `Credentials`). Read with `JSONReader` into
/// protected memory: the secret is unescaped there and moved into its own `SecureBytes`; it is
/// never a `String` (Foundation's `JSONDecoder` would make it one). Other members are ignored, as
/// Go's decoder ignores them; a member named twice counts once, the first (`JSONValue`).
struct RegistryLogin: ~Copyable {
    let serverURL: String
    let username: String
    var secret: SecureBytes?

    /// The request in `input`. Anything malformed is a usage error (exit 64) that says what is
    /// wrong, and nothing is stored.
    static func read(_ input: borrowing SecureBytes) throws -> RegistryLogin {
        let arena = try SecretArena(capacity: input.count + 64)
        let document: JSONValue
        do {
            document = try input.withUnsafeBytes { (bytes) throws(ImportFailure) in
                try JSONReader.value(bytes, into: arena)
            }
        } catch {
            throw CommandFailure(.usage, "the login on stdin is not JSON (\(error)); nothing was stored")
        }
        guard case .object = document else {
            throw CommandFailure(
                .usage,
                "the login on stdin is not a JSON object with ServerURL, Username and Secret; nothing was stored")
        }
        func text(_ key: String) throws -> String {
            guard let value = document[key] else { return "" }
            guard case .string(let reference) = value else {
                throw CommandFailure(.usage, "the login's \(key) is not a string; nothing was stored")
            }
            return arena.withBytes(of: reference) { String(decoding: $0, as: UTF8.self) }
        }
        let serverURL = try text("ServerURL")
        guard !serverURL.isEmpty else { throw CommandFailure(.usage, "no credentials server URL") }
        let username = try text("Username")
        // The helpers' own messages for these (credentials.isValid).
        guard !username.isEmpty else { throw CommandFailure(.usage, "no credentials username") }
        guard let value = document["Secret"], case .string(let reference) = value else {
            throw CommandFailure(.usage, "the login has no Secret string; nothing was stored")
        }
        let secret = try arena.withBytes(of: reference) { try SecureBytes(copying: $0) }
        return RegistryLogin(serverURL: serverURL, username: username, secret: secret)
    }
}
