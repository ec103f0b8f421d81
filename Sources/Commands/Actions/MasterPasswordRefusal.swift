import Passwords
import VaultModel

extension MasterPasswordPolicy {
    /// `init` and `passwd`: a master password under the minimum is a usage error (64) that says
    /// what would do, unless the user passed `--allow-weak`.
    static func check(_ strength: PasswordStrength, allowWeak: Bool, in context: CommandContext) throws {
        guard !accepts(strength) else { return }
        guard allowWeak else {
            throw CommandFailure(
                .usage, "the master password is \(shortfall(strength)); or pass --allow-weak to keep it")
        }
        context.streams.say("Kept a weak master password (--allow-weak).")
    }
}
