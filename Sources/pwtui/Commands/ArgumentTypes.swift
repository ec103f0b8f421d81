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
