/// How a request ends: the exit codes of docs/design.md#exit-codes. A vocabulary shared by the
/// executable (its exit code) and the agent (a refusal carries one), so a refusal means the same on
/// both sides of the socket. Which error gets which code each error type says itself
/// (`ExitStatusReporting`); `ExitStatus(error)` reads it, for the executable, the agent and the
/// tests' in-process runner alike.
public enum ExitStatus: Int32, Sendable, Codable, CaseIterable {
    case success = 0
    case noMatch = 1
    /// `pwtui audit` found a password to change (weak, reused, old or breached): the report is
    /// on stdout. Not a failure of pwtui's; scripts test for it, as with gopass's audit.
    case auditFindings = 3
    case usage = 64
    case corrupt = 65
    case noVault = 66
    /// sysexits' EX_SOFTWARE: an error no type of pwtui's says the code of, a bug. Never 1, which
    /// a script reads as "no match" and goes on.
    case internalError = 70
    /// The change is saved and in force, but something after the save failed: confirming its
    /// durability (the directory fsync) or writing the result to stdout. Never "unchanged".
    case savedButUnconfirmed = 73
    case ioError = 74
    case interactionRequired = 75
    case wrongPassword = 77
    case cancelled = 130
    /// SIGTERM or SIGHUP during the picker: the terminal restored, then 128 + 15 as a shell would report.
    case terminated = 143

    /// The code a command that failed with `error` exits with: the error's own
    /// (`ExitStatusReporting`), else `internalError`. Total: every error gets a code, and no error
    /// that pwtui did not foresee passes for "no match".
    public init(_ error: any Error) {
        self = (error as? any ExitStatusReporting)?.exitStatus ?? .internalError
    }
}

/// An error that says which exit code it ends a command with (docs/design.md#exit-codes). Every
/// error type under Sources conforms, where it is declared or, for a target below VaultModel that
/// cannot name `ExitStatus`, in `ExitStatusOfLowerLayers.swift`; `ExitStatusTests` reads the
/// sources and fails on one that does not, so a new error never falls through to exit 70.
public protocol ExitStatusReporting: Error {
    var exitStatus: ExitStatus { get }
}
