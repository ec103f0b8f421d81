/// An error that says which exit code it ends a command with (docs/design.md#exit-codes). Every
/// error type under Sources conforms, where it is declared or, for a target below VaultModel that
/// cannot name `ExitStatus`, in `ExitStatusOfLowerLayers.swift`; `ExitStatusTests` reads the
/// sources and fails on one that does not, so a new error never falls through to exit 70.
public protocol ExitStatusReporting: Error {
    var exitStatus: ExitStatus { get }
}
