import ArgumentParser
import Commands

/// Tab completion for arguments that name credentials: the shell calls back into pwtui, which
/// answers from the identity store without unlocking (`CompletionWords`). The vault is the one
/// the environment and settings name (a `--vault` typed on the same line is not seen here).
enum CredentialCompletion {
    /// For SERVICE arguments (`get`, `pick`, `list`, `totp`, `copy`, `suggest`).
    static let services = CompletionKind.custom { _, _, prefix in
        CompletionWords.words(
            prefix: prefix, services: true, in: CommandContext(vault: nil, config: nil, masterPasswordFD: nil))
    }

    /// For a credential named by id, service or title (`show`, `edit`, `rm`, `history`).
    static let credentials = CompletionKind.custom { _, _, prefix in
        CompletionWords.words(
            prefix: prefix, services: false, in: CommandContext(vault: nil, config: nil, masterPasswordFD: nil))
    }
}
