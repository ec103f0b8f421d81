import Platform
import ServiceMatching
import VaultCrypto

// The codes of the errors of the targets below VaultModel, which cannot name `ExitStatus`
// (docs/ARCHITECTURE.md): said here, the first layer that can, once for every command and the
// agent. Passwords sits beside VaultModel, not below it: its errors say theirs in Commands
// (`ExitStatusOfPasswords.swift`).

extension SystemError: ExitStatusReporting {
    /// A system call that failed outside any file pwtui names (a socket, a pipe, a lock).
    public var exitStatus: ExitStatus { .ioError }
}

extension RegularFile.Failure: ExitStatusReporting {
    /// An input file that is not there, or is no regular file, is sysexits' EX_NOINPUT (66) as a
    /// missing vault is; one over its bound is wrong input (65); anything else is I/O (74).
    public var exitStatus: ExitStatus {
        switch self {
        case .notRegular, .symbolicLink: .noVault
        case .system(_, _, let error) where error.isNotFound: .noVault
        case .tooLarge: .corrupt
        case .system: .ioError
        }
    }
}

extension VaultCryptoError: ExitStatusReporting {
    /// The primitives failing (no memory to lock, no entropy, a ciphertext that does not
    /// authenticate where the format checked everything else first): the system's or the file's
    /// fault, never the user's typing; the vault on disk is unchanged.
    public var exitStatus: ExitStatus { .ioError }
}

extension InvalidServiceIdentifier: ExitStatusReporting {
    /// A service the user typed that is not one (docs/design.md).
    public var exitStatus: ExitStatus { .usage }
}
