import Interchange
import Passwords
import Platform
import ServiceMatching
import TUI
import VaultAgent
import VaultCrypto
import VaultModel

/// Which error ends in which exit code (docs/design.md#exit-codes): the one place. The executable
/// exits with it; the agent puts it in a refusal, which the client's command then exits with.
extension ExitStatus {
    /// The code for one of pwtui's own errors; nil for errors that are not ours (the argument
    /// parser's, which it reports itself).
    public init?(_ error: any Error) {
        switch error {
        case let failure as CommandFailure:
            self = failure.code
        case let refusal as AgentRefusal:
            self = refusal.status
        case let error as VaultError:
            switch error {
            case .notFound, .notAFile: self = .noVault
            case .savedNotDurable: self = .savedButUnconfirmed
            case .corrupt, .unsupported, .keyDerivationTooExpensive: self = .corrupt
            case .wrongPassword: self = .wrongPassword
            case .io, .locked, .conflict, .crypto: self = .ioError
            case .invalidRequest, .alreadyExists: self = .usage
            case .noMatch: self = .noMatch
            }
        case let refusal as ReconcileRefusal:
            switch refusal {
            case .differentVaults: self = .usage
            case .differentPasswords: self = .wrongPassword
            case .keyNotHeld: self = .interactionRequired
            case .newerFormat: self = .corrupt
            }
        case is WithheldCredential:
            self = .noMatch
        case let error as BreachLookupError:
            // A path that names nothing is a mistyped option; a file that is not a Pwned
            // Passwords file is wrong input, as an export pwtui cannot read is (65).
            if case .unreadable(let failure) = error, case .system(_, _, let system) = failure, system.isNotFound {
                self = .usage
            } else {
                self = error.isInputOutput ? .ioError : .corrupt
            }
        case is InvalidServiceIdentifier:
            self = .usage
        case is ImportFailure:
            // sysexits' EX_DATAERR: the input (here the export, not the vault) is wrong.
            self = .corrupt
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
