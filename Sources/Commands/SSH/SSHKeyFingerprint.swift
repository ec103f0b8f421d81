import FoundationEssentials
import VaultCrypto

/// An SSH public key's fingerprint as `ssh-keygen -l` prints it: `SHA256:` and the SHA-256 of
/// the key blob in base64 without its `=` padding. What the approval shows, so the user can
/// match the key asked for against `ssh-keygen -lf` or a server's log.
enum SSHKeyFingerprint {
    static func sha256(ofBlob blob: [UInt8]) -> String {
        guard let digest = try? SHA256.hash(blob) else { return "SHA256:?" }
        var encoded = Data(digest).base64EncodedString()
        while encoded.hasSuffix("=") { encoded.removeLast() }
        return "SHA256:" + encoded
    }
}
