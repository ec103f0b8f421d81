import VaultCrypto
import VaultModel

/// What a command asks on the terminal between screens: a secret without echo, a yes/no, a line
/// of text. The controlling terminal's prompt asks on /dev/tty; a test's answers from a script,
/// so the commands that prompt are tested in process.
public protocol LinePrompt: AnyObject {
    /// Writes text for the person (a prompt's context, a confirmation).
    func say(_ text: String)
    /// Asks for a secret without echo.
    func readSecret(prompt: String) throws(PromptError) -> SecureBytes
    /// Asks a yes/no question; only yes is yes.
    func confirm(_ question: String) throws(PromptError) -> Bool
}

/// Why a prompt got no answer: the person cancelled (Ctrl-C, Esc, Ctrl-D on an empty line), or
/// the terminal failed.
public enum PromptError: Error, Equatable, CustomStringConvertible {
    case cancelled
    case io(Int32)
    case crypto(VaultCryptoError)

    public var description: String {
        switch self {
        case .cancelled: return "cancelled"
        case .io(let code): return "terminal error \(code)"
        case .crypto(let error): return error.description
        }
    }
}

extension PromptError: ExitStatusReporting {
    public var exitStatus: ExitStatus { self == .cancelled ? .cancelled : .ioError }
}
