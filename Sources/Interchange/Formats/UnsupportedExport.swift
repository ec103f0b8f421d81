/// Files of managers pwtui does not read, recognised so that they are named instead of misread.
///
/// Several managers write a CSV header that contains another's columns (NordPass's starts with
/// Chrome's; SaferPass's and Padlock's have Chrome's or Safari's columns among theirs) or a JSON
/// object with `items` like Bitwarden's (Enpass). Taken for the other manager's export, such a
/// file would lose columns or put a card number in the notes, so it is refused with what it is.
/// A binary database (KeePass's `.kdbx`) or an archive (1Password's `.1pux`) is told by its first
/// bytes, before anything tries to read it as text ("invalid UTF-8" helps nobody).
///
/// The shapes are those of the test files pass-import keeps for its own importers
/// (github.com/roddhjav/pass-import, tests/assets/db), and of KeePass's published file format.
enum UnsupportedExport {
    /// What a binary file is, from its first bytes; nil when it may be text.
    static func binary(_ bytes: UnsafeRawBufferPointer) -> String? {
        func starts(with magic: [UInt8]) -> Bool {
            bytes.count >= magic.count && zip(bytes, magic).allSatisfy { $0 == $1 }
        }
        // KeePass 1 and 2 share the first signature word, 0x9AA2D903 little-endian.
        if starts(with: [0x03, 0xD9, 0xA2, 0x9A]) {
            return
                "is a KeePass database, which is encrypted: export it as XML from KeePassXC (Database → Export → XML, or keepassxc-cli export --format xml) or from KeePass (File → Export → KeePass XML (2.x)), then import that"
        }
        if starts(with: [0x50, 0x4B, 0x03, 0x04]) || starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            return
                "is a zip archive, read only as 1Password's .1pux export (without --format, or with --format 1password-1pux)"
        }
        if starts(with: [0x1F, 0x8B]) {
            return "is gzip-compressed: decompress it first (gunzip), then import the file inside"
        }
        if starts(with: Array("-----BEGIN PGP MESSAGE".utf8)) {
            return "is an encrypted PGP message: decrypt it first (gpg --decrypt), then import the plaintext"
        }
        return nil
    }

    /// The manager a CSV header (lowercased cells) belongs to, when it is one pwtui does not read.
    static func csv(_ header: [String]) -> String? {
        let names = Set(header.filter { !$0.isEmpty })
        let known: [(manager: String, fits: (Set<String>) -> Bool)] = [
            ("NordPass", { $0.isSuperset(of: ["cardholdername", "cardnumber", "cvc"]) }),
            ("Buttercup", { $0.contains("!group_id") || $0.contains("!group_name") }),
            ("SaferPass", { $0.isSuperset(of: ["modeltype", "modelversion"]) }),
            ("Padlock", { $0 == ["name", "tags", "url", "username", "password", "notes"] }),
            ("1Password 7 (all fields)", { $0.contains("ainfo") || $0.contains { $0.hasPrefix("section:") } }),
            ("Dashlane", { $0.contains("username2") || $0.contains("otpsecret") }),
        ]
        return known.first { $0.fits(names) }?.manager
    }

    /// Whether a JSON document with `items` is Enpass's: its items have a `template_type` and
    /// `fields` with a `sensitive` flag, where Bitwarden's have a numeric `type` and a `login`.
    static func isEnpass(_ items: [JSONValue]) -> Bool {
        items.contains {
            $0["template_type"] != nil || ($0["category"] != nil && $0["login"] == nil && $0["fields"] != nil)
        }
    }
}
