import Platform
import TUI
import VaultCrypto
import VaultModel

/// The exit codes of DESIGN §3, and which error gets which.
enum ExitStatus: Int32 {
    case success = 0
    case noMatch = 1
    case usage = 64
    case corrupt = 65
    case noVault = 66
    /// The change is saved and in force, but something after the save failed: confirming its
    /// durability (the directory fsync) or writing the result to stdout. Never "unchanged".
    case savedButUnconfirmed = 73
    case ioError = 74
    case interactionRequired = 75
    case wrongPassword = 77
    case cancelled = 130
    /// SIGTERM or SIGHUP during the picker: the terminal restored, then 128 + 15 as a shell would report.
    case terminated = 143

    /// The code for one of pwtui's own errors; nil for errors that are not ours.
    init?(_ error: any Error) {
        switch error {
        case let error as VaultError:
            switch error {
            case .notFound, .notAFile: self = .noVault
            case .savedNotDurable: self = .savedButUnconfirmed
            case .corrupt, .unsupported, .keyDerivationTooExpensive: self = .corrupt
            case .wrongPassword: self = .wrongPassword
            case .io, .conflict, .crypto: self = .ioError
            case .invalidRequest, .alreadyExists: self = .usage
            case .noMatch: self = .noMatch
            }
        case is VaultCryptoError, is AgentError:
            self = .ioError
        case let error as PromptError:
            self = error == .cancelled ? .cancelled : .ioError
        case let error as NcursesTerminal.Terminated:
            self = error.signal == .interrupt ? .cancelled : .terminated
        default:
            return nil
        }
    }
}
