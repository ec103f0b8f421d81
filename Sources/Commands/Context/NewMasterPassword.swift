import Passwords
import VaultCrypto
import VaultModel

/// A new master password, for `init` and `passwd`: the first line of a descriptor, else typed
/// twice on the terminal; never empty; its strength said on stderr and held to
/// `MasterPasswordPolicy` (refused below it unless `allowWeak`).
enum NewMasterPassword {
    /// `option`: the descriptor's option, named when there is no terminal to type on;
    /// `heading`: how the strength line starts ("Master password", "New master password").
    static func read(
        from descriptor: Int32?, option: String, example: String = "", heading: String,
        allowWeak: Bool, in context: CommandContext
    ) throws -> SecureBytes {
        let password =
            try descriptor.map { try SecretReader.firstLine(of: $0, what: option) }
            ?? SecretReader.typedTwice(
                label: "master password", otherwise: "pass it on a descriptor: \(option) N\(example)",
                from: context.streams)
        guard !password.isEmpty else { throw CommandFailure(.usage, "the master password must not be empty") }
        let strength = password.withUnsafeBytes { PasswordStrength(utf8: $0) }
        context.streams.say("\(heading) strength: " + strength.summary)
        try MasterPasswordPolicy.check(strength, allowWeak: allowWeak, in: context)
        return password
    }
}
