import FoundationEssentials
import Platform
import VaultCrypto

/// Everything that can go wrong with a vault, each case carrying what the user needs to act.
/// Which exit code each one ends in (docs/design.md#exit-codes) is its `exitStatus`, for the
/// command line and the agent's refusals alike.
public enum VaultError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No vault at the path.
    case notFound(path: String)
    /// Refusing to create a vault where something already is.
    case alreadyExists(path: String)
    /// The file is damaged: a flipped byte, a truncation, trailing garbage, an inconsistency.
    case corrupt(path: String, reason: String)
    /// The file is intact but of a version or with features this pwtui does not know.
    case unsupported(path: String, reason: String)
    /// The file asks for more key-derivation work than this process agrees to do.
    case keyDerivationTooExpensive(path: String, requested: KDFParameters, bounds: KDFParameters.Bounds)
    /// The master password does not open the vault.
    case wrongPassword(path: String)
    /// A system call failed; the vault on disk is unchanged.
    case io(path: String, operation: String, errno: Int32)
    /// The new file is in place (renamed over the old one), but what makes it survive a power
    /// cut failed: the change is in force, its durability is not confirmed.
    case savedNotDurable(path: String, operation: String, errno: Int32)
    /// Something that is not a regular file (a FIFO, a directory, a device) is at the vault path;
    /// it is never opened for reading, so nothing blocks on it.
    case notAFile(path: String, kind: String)
    /// Another process held the lock on `path` for longer than pwtui waits (`FileLock.patience`).
    case locked(path: String, seconds: Int)
    /// Someone else changed the vault in a way this process cannot merge into.
    case conflict(path: String, reason: String)
    /// The cryptographic layer refused (out of protected memory, usually).
    case crypto(VaultCryptoError)
    /// A request that does not make sense (an ambiguous id, an empty field that must not be).
    case invalidRequest(String)
    /// Nothing matches what was asked for.
    case noMatch(String)

    /// Whether the change is in force although the save reported an error (see `savedNotDurable`).
    public var isSavedNotDurable: Bool {
        if case .savedNotDurable = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .notFound(let path):
            return "no vault at \(path) (create one with 'pwtui init', or point --vault / PWTUI_VAULT at yours)"
        case .alreadyExists(let path):
            if Self.isDirectory(path) { return "\(path) is a directory, not a vault file (\(Self.nameTheFile(path)))" }
            return "\(path) already exists; refusing to overwrite it"
        case .corrupt(let path, let reason):
            // Named only when it is there: a message must not send anyone to a file that is not.
            let backup =
                FileSystem.exists(path + ".bak")
                ? "restore it from \(path).bak (the previous save) or a backup" : "restore it from a backup"
            return "\(path) is damaged: \(reason). The file was not changed; \(backup)"
        case .unsupported(let path, let reason):
            return "\(path) cannot be opened by this pwtui: \(reason). The file was not changed"
        case .keyDerivationTooExpensive(let path, let requested, let bounds):
            return "\(path) asks for key derivation with \(requested), more than the allowed "
                + "\(bounds.maxOpsLimit) passes / \(KDFParameters.memory(kibibytes: bounds.maxMemLimitKiB)); refusing before doing any of it"
        case .wrongPassword(let path):
            return "wrong master password for \(path)"
        case .io(let path, let operation, let errno):
            return "\(operation) \(path) failed: \(SystemError.message(errno)). The vault on disk is unchanged"
        case .savedNotDurable(let path, let operation, let errno):
            return "the change is saved in \(path), but \(operation) failed: \(SystemError.message(errno)). "
                + "The new version is in force; it may not survive a power cut or crash until the next successful save"
        case .notAFile(let path, let kind):
            let hint =
                kind == Self.directoryKind ? Self.nameTheFile(path) : "point --vault / PWTUI_VAULT at the vault file"
            return "\(path) is \(kind), not a vault file; refusing to read it (\(hint))"
        case .locked(let path, let seconds):
            return
                "\(path) stayed locked by another process for \(seconds) seconds (another pwtui saving, or another user's "
                + "process in a shared directory); nothing was written. Try again, or write somewhere only you use"
        case .conflict(let path, let reason):
            return "\(path) changed while pwtui was working: \(reason). Nothing was written"
        case .crypto(let error):
            return error.description
        case .invalidRequest(let message):
            return message
        case .noMatch(let message):
            return message
        }
    }
}

extension VaultError {
    /// `notAFile`'s kind for a directory.
    static let directoryKind = "a directory"

    /// The most likely mistake behind a path that is not a vault file is naming the folder the
    /// vault is in: say that the options name the file itself.
    static func nameTheFile(_ path: String) -> String {
        let example = (path.hasSuffix("/") ? path : path + "/") + "vault.pwtui"
        return "--vault, PWTUI_VAULT and the settings' vault name the vault file itself, like \(example)"
    }

    /// `init` on a directory: `alreadyExists` is thrown without knowing what exists.
    static func isDirectory(_ path: String) -> Bool {
        (try? FileSystem.status(path))?.kind == .directory
    }
}

/// Calls into VaultCrypto and wraps its error, so that everything leaving VaultModel is a
/// `VaultError`.
@inline(__always)
func cryptoCall<Result: ~Copyable>(_ body: () throws(VaultCryptoError) -> Result) throws -> Result {
    do {
        return try body()
    } catch {
        throw VaultError.crypto(error)
    }
}

extension VaultError {
    /// Runs a Platform call; its failure becomes `io` at `path` with the words `operation`
    /// ("replacing", "locking"), the vault on disk unchanged.
    static func during<T>(_ operation: String, of path: String, _ call: () throws -> T) throws -> T {
        do {
            return try call()
        } catch let error as SystemError {
            throw VaultError.io(path: path, operation: operation, errno: error.code)
        }
    }

    /// As `during`, for a step after the rename: the new file is in force, only not confirmed.
    static func afterSaving<T>(_ operation: String, of path: String, _ call: () throws -> T) throws -> T {
        do {
            return try call()
        } catch let error as SystemError {
            throw VaultError.savedNotDurable(path: path, operation: operation, errno: error.code)
        }
    }
}

extension VaultError: ExitStatusReporting {
    public var exitStatus: ExitStatus {
        switch self {
        case .notFound, .notAFile: .noVault
        case .savedNotDurable: .savedButUnconfirmed
        case .corrupt, .unsupported, .keyDerivationTooExpensive: .corrupt
        case .wrongPassword: .wrongPassword
        case .io, .locked, .conflict, .crypto: .ioError
        case .invalidRequest, .alreadyExists: .usage
        case .noMatch: .noMatch
        }
    }
}
