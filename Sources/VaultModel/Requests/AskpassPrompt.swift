import ServiceMatching

/// What a program asking through `SSH_ASKPASS`, `SUDO_ASKPASS` or `GIT_ASKPASS` wants, read from
/// the one prompt it passes as its argument. Only the prompts these programs really print are
/// understood (the strings are theirs: git 2.39's credential.c, OpenSSH 9.2's sshconnect2.c and
/// ssh-add.c, sudo 1.9's default `passprompt`); anything else is `nil`, and askpass answers
/// nothing. A host-key question ("Are you sure you want to continue connecting (yes/no)?") or a
/// confirmation (`SSH_ASKPASS_PROMPT=confirm`) is such an unknown prompt: saying "yes" for the
/// person would be a guess. docs/askpass.md has the table.
public enum AskpassPrompt: Equatable, Sendable {
    /// git: `Username for 'https://host': `. The URL has no user.
    case gitUsername(url: String)
    /// git: `Password for 'https://user@host': `. `user` is nil when git knows none.
    case gitPassword(url: String, user: String?)
    /// OpenSSH: `user@host's password: `, or the keyboard-interactive form
    /// `(user@host) Password: ` (a PAM password prompt, OpenSSH 8.4+).
    case sshPassword(user: String, host: String)
    /// OpenSSH: `Enter passphrase for key '/path': ` (ssh) or `Enter passphrase for /path: `
    /// (ssh-add, with ` (will confirm each use)` for `ssh-add -c`).
    case keyPassphrase(path: String)
    /// sudo: `[sudo] password for user: ` (Debian's build, `--with-passprompt`).
    case sudoPassword(user: String)

    /// The prompt `text` as a program printed it (trailing spaces and a line break do not matter).
    public init?(_ text: String) {
        var prompt = Substring(text)
        while let last = prompt.last, last == " " || last == "\n" || last == "\r" || last == "\t" {
            prompt.removeLast()
        }
        guard prompt.hasSuffix(":") else { return nil }
        prompt.removeLast()
        guard let parsed = Self.parse(prompt) else { return nil }
        self = parsed
    }

    /// `prompt` without its final colon.
    private static func parse(_ prompt: Substring) -> AskpassPrompt? {
        if let url = quoted(prompt, after: "Username for ") {
            // git names no user when it asks for one.
            guard !url.isEmpty, !authority(of: url).contains("@") else { return nil }
            return .gitUsername(url: String(url))
        }
        if let url = quoted(prompt, after: "Password for ") {
            guard !url.isEmpty else { return nil }
            return splitUser(fromURL: url)
        }
        if let path = quoted(prompt, after: "Enter passphrase for key ") {
            return path.isEmpty ? nil : .keyPassphrase(path: String(path))
        }
        if prompt.hasPrefix("Enter passphrase for ") {
            var path = prompt.dropFirst("Enter passphrase for ".count)
            if path.hasSuffix(" (will confirm each use)") { path = path.dropLast(" (will confirm each use)".count) }
            // ssh-add names a file; `PKCS#11` (a token's PIN) and anything unquoted with a space
            // in it that is no path are not a key file's passphrase this can look up.
            guard path.first == "/" || path.first == "~" || path.first == "." || !path.contains(" "),
                path != "PKCS#11", !path.isEmpty
            else { return nil }
            return .keyPassphrase(path: String(path))
        }
        if prompt.hasPrefix("[sudo] password for ") {
            let user = prompt.dropFirst("[sudo] password for ".count)
            guard !user.isEmpty, !user.contains(" ") else { return nil }
            return .sudoPassword(user: String(user))
        }
        if prompt.hasPrefix("("), let close = prompt.firstIndex(of: ")") {
            // `(user@host) Password` — only a password: a one-time code or any other question
            // of a keyboard-interactive server is not the account's password.
            let inner = prompt[prompt.index(after: prompt.startIndex) ..< close]
            let rest = prompt[prompt.index(after: close)...]
            guard rest == " Password" || rest == " password" else { return nil }
            return userAtHost(inner)
        }
        if prompt.hasSuffix("'s password") {
            let who = prompt.dropLast("'s password".count)
            // OpenSSH's `Enter user@host's old password` (an expired password being changed) is
            // no login: the word before the user would be part of it, so a space refuses.
            return userAtHost(who)
        }
        return nil
    }

    /// The text between `'…'` when `prompt` is `prefix` followed by a quoted string and nothing
    /// else.
    private static func quoted(_ prompt: Substring, after prefix: String) -> Substring? {
        guard prompt.hasPrefix(prefix + "'"), prompt.hasSuffix("'"), prompt.count >= prefix.count + 2 else {
            return nil
        }
        return prompt.dropFirst(prefix.count + 1).dropLast()
    }

    /// A URL's `user@host:port`: what follows `scheme://` up to the path.
    private static func authority(of url: Substring) -> Substring {
        guard let start = afterScheme(url) else { return url }
        return url[start...].prefix { $0 != "/" }
    }

    /// Where what follows a URL's `scheme://` starts (no Foundation here for `range(of:)`).
    private static func afterScheme(_ url: Substring) -> Substring.Index? {
        var index = url.startIndex
        while index < url.endIndex {
            if url[index...].hasPrefix("://") { return url.index(index, offsetBy: 3) }
            guard url[index].isLetter || url[index].isNumber || "+-.".contains(url[index]) else { return nil }
            index = url.index(after: index)
        }
        return nil
    }

    /// git's `scheme://user@host/path` (the user as typed, not percent-encoded): the user is what
    /// comes before the last '@' of the authority, since a host has none.
    private static func splitUser(fromURL url: Substring) -> AskpassPrompt? {
        guard let schemeEnd = afterScheme(url) else { return nil }
        let authority = authority(of: url)
        guard let at = authority.lastIndex(of: "@") else {
            return .gitPassword(url: String(url), user: nil)
        }
        let user = authority[..<at]
        let withoutUser = url[..<schemeEnd] + url[authority.index(after: at)...]
        guard !user.isEmpty else { return .gitPassword(url: String(withoutUser), user: nil) }
        return .gitPassword(url: String(withoutUser), user: String(user))
    }

    /// `user@host`, split at the last '@' (a host has none; a user may).
    private static func userAtHost(_ text: Substring) -> AskpassPrompt? {
        guard let at = text.lastIndex(of: "@"), !text.contains(" ") else { return nil }
        let user = text[..<at]
        let host = text[text.index(after: at)...]
        guard !user.isEmpty, !host.isEmpty else { return nil }
        return .sshPassword(user: String(user), host: String(host))
    }

    /// OpenSSH prints at most 100 bytes of a key's path (`%.100s`): a path that long may be cut,
    /// and a cut path would name another file.
    public static let sshPathLimit = 100
}
