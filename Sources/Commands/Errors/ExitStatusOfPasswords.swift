import Passwords
import Platform
import VaultModel

// The codes of Passwords' errors. Passwords sits beside VaultModel and needs none of it
// (docs/ARCHITECTURE.md), so it cannot name `ExitStatus`: its errors say their codes here, in the
// first target that sees both.

extension BreachLookupError: ExitStatusReporting {
    /// A path that names nothing is a mistyped option; a file that is not a Pwned Passwords file
    /// is wrong input, as an export pwtui cannot read is (65).
    public var exitStatus: ExitStatus {
        if case .unreadable(let failure) = self, case .system(_, _, let system) = failure, system.isNotFound {
            return .usage
        }
        return isInputOutput ? .ioError : .corrupt
    }
}

extension PasswordRules.ParseError: ExitStatusReporting {
    /// A `passwordrules` text the user gave (`--rules`, `--generate=RULES`) that does not parse.
    public var exitStatus: ExitStatus { .usage }
}

extension RulesPasswordGenerator.Impossible: ExitStatusReporting {
    /// Rules no password can satisfy: the user's rules (or length) to change.
    public var exitStatus: ExitStatus { .usage }
}

extension PassphraseGenerator.InvalidWordCount: ExitStatusReporting {
    public var exitStatus: ExitStatus { .usage }
}

extension PasswordDictionary.LoadError: ExitStatusReporting {
    /// python3-zxcvbn's lists missing or unreadable: the system's, not the user's input.
    public var exitStatus: ExitStatus { .ioError }
}
