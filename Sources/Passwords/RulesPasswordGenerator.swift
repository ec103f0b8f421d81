import VaultCrypto

// A password a site will take: its `passwordrules` met, and otherwise as strong as they allow.
//
// First choice is Safari's form (`PasswordGenerator`, three groups of six with hyphens): users
// know it, and it is easy to type on a phone. When the rules accept it, a fresh one is kept. They
// often do not (a `maxlength` under 20, no `-` allowed, a required `special` other than `-`,
// `max-consecutive: 1`), and then the password is drawn character by character, uniformly from
// libsodium's CSPRNG, over every character the rules permit, until a draw meets every condition
// (a character from each `required` set, no run longer than `max-consecutive`). Keeping only the
// draws that pass is what makes the result uniform over all passwords of that length the rules
// accept: no class is favoured by being placed first, and no position is predictable. A draw
// passes with probability well above 1 % for every rule set Apple publishes, so a few hundred
// tries at most; after 10,000 the rules are taken to be impossible and said to be.
//
// The length is 20 (Safari's, about 115 bits over 70 characters) unless the rules say otherwise:
// raised to `minlength`, lowered to `maxlength`. Longer than 20 gains little that a site's own
// storage does not lose, and many sites silently cut long passwords.
//
// A space is printable ASCII and `special`, so rules that allow `special` allow it; it is left
// out of what is drawn unless a `required` set needs it, because a trailing space is the one
// character a user pasting the password cannot see.

public enum RulesPasswordGenerator {
    public static let defaultLength = 20
    static let attempts = 10_000
    /// The longest password made: the longest secret a vault takes (VaultModel's
    /// `Limits.secretBytes`, which PasswordsTests holds this to: Passwords does not import
    /// VaultModel).
    static let longest = 64 * 1024

    public struct Impossible: Error, CustomStringConvertible {
        public let description: String
    }

    /// A password that meets `rules`, in protected memory. Throws `Impossible`, or the
    /// `VaultCryptoError` of protected memory or randomness.
    public static func generate(_ rules: PasswordRules) throws -> SecureBytes {
        try requirePossible(rules)
        for _ in 0 ..< 20 {
            let safari = try PasswordGenerator.generate()
            if safari.withUnsafeBytes({ satisfies($0, rules) }) { return safari }
        }
        let minimum = rules.minimumLength ?? 0, maximum = rules.maximumLength ?? Int.max
        guard minimum <= maximum else {
            throw Impossible(description: "minlength \(minimum) is above maxlength \(maximum)")
        }
        let length = max(minimum, min(defaultLength, maximum))
        guard length >= rules.required.count, length <= longest else {
            throw Impossible(
                description:
                    "no password of \(length) characters can hold one of each of \(rules.required.count) required sets")
        }
        var alphabet = rules.permitted.subtracting([0x20])
        for set in rules.required where set.isDisjoint(with: alphabet) { alphabet.formUnion(set) }
        let characters = alphabet.sorted()
        guard !characters.isEmpty else { throw Impossible(description: "the rules permit no character") }
        for _ in 0 ..< attempts {
            var password = try SecureBytes(capacity: length)
            for _ in 0 ..< length {
                let index = Int(try RandomBytes.uniform(UInt32(characters.count)))
                try password.append(characters[index])
            }
            if password.withUnsafeBytes({ satisfies($0, rules) }) { return password }
        }
        throw Impossible(
            description: "no password met these rules in \(attempts) tries; they may contradict each other")
    }

    /// Refuses, before any drawing, rules that no password (and so only the empty one, which
    /// `satisfies` would accept and `add` would save) can meet: a maximum length of 0, no
    /// character allowed at all, a required set with no character in it, a minimum above the maximum.
    public static func requirePossible(_ rules: PasswordRules) throws {
        let minimum = rules.minimumLength ?? 0, maximum = rules.maximumLength ?? Int.max
        if maximum == 0 {
            throw Impossible(description: "maxlength 0 allows no password at all (an empty password is never made)")
        }
        if minimum > maximum {
            throw Impossible(description: "minlength \(minimum) is above maxlength \(maximum)")
        }
        if rules.required.contains(where: \.isEmpty) {
            throw Impossible(description: "a required set holds no character a password can have")
        }
        if !rules.allowsUnicode, rules.permitted.isEmpty {
            throw Impossible(description: "the rules permit no character")
        }
    }

    /// Whether `password` meets `rules`.
    public static func satisfies(_ password: UnsafeRawBufferPointer, _ rules: PasswordRules) -> Bool {
        if let minimum = rules.minimumLength, password.count < minimum { return false }
        if let maximum = rules.maximumLength, password.count > maximum { return false }
        let permitted = rules.permitted
        guard rules.allowsUnicode || password.allSatisfy(permitted.contains) else { return false }
        for set in rules.required where !password.contains(where: set.contains) { return false }
        if let limit = rules.maximumConsecutive {
            var run = 0
            var previous: UInt8?
            for byte in password {
                run = byte == previous ? run + 1 : 1
                previous = byte
                if run > limit { return false }
            }
        }
        return true
    }
}
