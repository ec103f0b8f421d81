import FoundationEssentials
import VaultCrypto

/// A public key's fingerprint as `ssh-keygen -l` prints it: `SHA256:` and the unpadded base64 of
/// the SHA-256 of its blob.
public enum SSHFingerprint {
    public static func of(_ keyBlob: [UInt8]) -> String {
        var encoded = Data(SHA256.hash(keyBlob)).base64EncodedString()
        while encoded.hasSuffix("=") { encoded.removeLast() }
        return "SHA256:" + encoded
    }
}
