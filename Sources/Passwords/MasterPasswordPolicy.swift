/// The least a master password must resist, and what to tell whoever chose less.
///
/// A stolen vault file is attacked offline: nothing limits the guesses but the cost of Argon2id.
/// At the default unlock cost (moderate: 3 passes over 256 MiB) one guess moves about 2.3 GB
/// through memory, so a GPU with 3 TB/s of bandwidth does at most about 1,000 guesses a second.
/// Rented at about $2 an hour, that is some 2 million guesses per dollar, and every 10 bits of
/// password cost 1,000 times more: 30 bits (2^30 guesses) are a few hundred dollars, 40 bits
/// some $600,000 to try them all — beyond anyone who is not after this one vault in particular.
/// So the minimum is the estimator's border between weak and fair, 40 bits: what it already
/// called weak is refused unless the user insists (`--allow-weak`, or a second Enter in the
/// wizard). docs/password-strength.md says the same for users.
public enum MasterPasswordPolicy {
    /// Estimated bits below which a master password is refused unless the user insists.
    public static let minimumBits = PasswordStrength.fairBits

    public static func accepts(_ strength: PasswordStrength) -> Bool {
        strength.bits >= minimumBits
    }

    /// What would be strong enough, for a refusal: the estimator rates four random words from a
    /// common list, or nine random characters of every class, above the minimum.
    public static let strongEnough =
        "4 random words (like `tiger lamp orbit velvet`) or 9 random letters, digits and symbols"

    /// "too weak: about 20 bits (a common word or password), and at least 40 are needed — …".
    public static func shortfall(_ strength: PasswordStrength) -> String {
        var text = "too weak: about \(strength.bits) bits"
        if let weakness = strength.weakness { text += " (\(weakness))" }
        return text + ", and at least \(minimumBits) are needed — \(strongEnough) would do"
    }
}
