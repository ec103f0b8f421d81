import ArgumentParser
import Commands
import ServiceMatching
import VaultCrypto
import VaultModel

/// What a pipe receives (`get --field`, `pick --output`).
extension CredentialField: ExpressibleByArgument {}

extension ListCredentials.Format: ExpressibleByArgument {}

/// `--kdf interactive|moderate|sensitive`.
enum KDFPreset: String, ExpressibleByArgument, CaseIterable {
    case interactive, moderate, sensitive

    var parameters: KDFParameters {
        switch self {
        case .interactive: return .interactive
        case .moderate: return .moderate
        case .sensitive: return .sensitive
        }
    }
}

/// `add --kind login|note|card|identity`: the kinds a person makes by hand (an SSH key has its
/// own commands, `pwtui ssh generate` and `ssh import`).
enum ItemKindArgument: String, ExpressibleByArgument, CaseIterable {
    case login, note, card, identity

    var itemKind: ItemKind {
        switch self {
        case .login: .login
        case .note: .note
        case .card: .card
        case .identity: .identity
        }
    }
}
