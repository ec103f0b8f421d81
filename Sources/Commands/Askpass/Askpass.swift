import Platform
import ServiceMatching
import UnicodeText
import VaultAgent
import VaultCrypto
import VaultModel

/// `pwtui askpass PROMPT` (and `pwtui-askpass PROMPT`, the name `make install` links): the
/// answer to a prompt of git, ssh, ssh-add or sudo on stdout, followed by a line break, as
/// `SSH_ASKPASS`, `SUDO_ASKPASS` and `GIT_ASKPASS` programs answer.
///
/// Which credential answers (docs/askpass.md):
/// - git's `Username for 'URL'` / `Password for 'URL'`, and ssh's `user@host's password`: the best
///   match for that URL or host, ranked as `pwtui get` ranks (`CredentialQuery`), in the tiers
///   that name that very host (`CredentialQuery.sameHost`: no parent domain's or sibling's
///   password is typed into another machine), with the prompt's user as the username;
/// - sudo's `[sudo] password for user`: the credential for this machine's host name (as
///   `hostname` prints it) with that username — the same credential an ssh login to this machine
///   would use;
/// - a key's passphrase: the credential titled with the key file's path as the program printed
///   it, else titled with its file name (`id_ed25519`). Two with that title are an error, not a
///   guess.
///
/// An unlocked agent answers at once; a locked vault is unlocked on the terminal when there is
/// one (git and ssh leave /dev/tty to their askpass), else nothing is printed and askpass exits
/// 75. An unknown prompt exits 64, no match 1; stdout then stays empty, so the asking program
/// sees a failed askpass and never an answer it did not ask for.
public struct Askpass {
    public let prompt: String

    public init(prompt: String) {
        self.prompt = prompt
    }

    /// The question the prompt asks: which credential, and which of its fields.
    struct Question {
        /// Tried in order until one matches (a key's path, then its file name).
        var queries: [CredentialQuery]
        var field: CredentialField
        /// For the message when nothing matches.
        var wanted: String
    }

    public func run(in context: CommandContext) throws {
        guard let parsed = AskpassPrompt(prompt) else {
            throw CommandFailure(
                .usage,
                "askpass does not know the prompt '\(PrintableText.echoed(prompt))'; it answers git's, ssh's, ssh-add's and sudo's password prompts (docs/askpass.md), and nothing else"
            )
        }
        let question = try Self.question(for: parsed, hostName: HostName.current())
        var value = try answer(question, in: context)
        try value.withUnsafeBytes { bytes in
            // Each program reads one line: a line break or NUL inside would end the answer early
            // or carry a second line into what the program reads next. ssh, git and sudo also
            // cut at a CR anywhere (a server would get the half before it), so that is refused too.
            guard !bytes.contains(0x0A), !bytes.contains(0x0D), !bytes.contains(0) else {
                throw CommandFailure(
                    .usage,
                    "the \(question.field.rawValue) of the credential for \(question.wanted) contains a line break (CR or LF) or a NUL, where ssh, git and sudo would cut it and send the part before; an askpass answer cannot carry it, so nothing was answered"
                )
            }
        }
        try value.append(0x0A)
        try context.streams.write(value)
    }

    /// What `prompt` asks for; `hostName` is this machine's (sudo's prompts).
    static func question(for prompt: AskpassPrompt, hostName: String?) throws -> Question {
        switch prompt {
        case .gitUsername(let url):
            let service = try service(url)
            return Question(
                queries: [CredentialQuery(services: [service], tiers: CredentialQuery.sameHost)], field: .username,
                wanted: service.text)
        case .gitPassword(let url, let user):
            let service = try service(url)
            return Question(
                queries: [CredentialQuery(services: [service], username: user, tiers: CredentialQuery.sameHost)],
                field: .password, wanted: user.map { "\($0) at \(service.text)" } ?? service.text)
        case .sshPassword(let user, let host):
            // ssh prints an IPv6 address without brackets; a service names it with them.
            let service = try Self.service(host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host)
            return Question(
                queries: [CredentialQuery(services: [service], username: user, tiers: CredentialQuery.sameHost)],
                field: .password, wanted: "\(user) at \(service.text)")
        case .sudoPassword(let user):
            guard let hostName, let service = try? ServiceIdentifier(hostName) else {
                throw CommandFailure(
                    .noMatch,
                    "sudo asks for \(user)'s password, but this machine's host name is not one a credential can name")
            }
            return Question(
                queries: [CredentialQuery(services: [service], username: user, tiers: CredentialQuery.sameHost)],
                field: .password, wanted: "\(user) at \(service.text) (this machine)")
        case .keyPassphrase(let path):
            guard path.utf8.count < AskpassPrompt.sshPathLimit else {
                throw CommandFailure(
                    .usage,
                    "the key's path in the prompt is \(AskpassPrompt.sshPathLimit) bytes or more, and OpenSSH cuts such paths short; a cut path could name another key, so nothing was answered"
                )
            }
            let fileName = String(path.split(separator: "/").last ?? Substring(path))
            var titles = [path]
            if fileName != path { titles.append(fileName) }
            return Question(
                queries: titles.map { CredentialQuery(title: $0) }, field: .password,
                wanted: "the key \(path) (a credential titled \(titles.map { "'\($0)'" }.joined(separator: " or ")))")
        }
    }

    private static func service(_ text: String) throws -> ServiceIdentifier {
        do {
            return try ServiceIdentifier(text)
        } catch {
            throw CommandFailure(.usage, "askpass cannot read the prompt's host: \(error)")
        }
    }

    /// The field's value, without the rendered line break, in protected memory.
    private func answer(_ question: Question, in context: CommandContext) throws -> SecureBytes {
        // From an unlocked agent, the first of the questions' queries that matches; nil at the
        // first means no agent answers (none, locked, --master-password-fd).
        var locked = false
        for query in question.queries {
            do {
                guard
                    let message = try VaultAccess.ask(
                        .get(vault: context.vaultPath, query: query, field: question.field), in: context)
                else {
                    locked = true
                    break
                }
                return try message.payload.withUnsafeBytes {
                    try SecureBytes(copying: CredentialField.value(ofRendered: $0))
                }
            } catch {
                guard let refusal = error as? AgentRefusal, refusal.status == .noMatch else { throw error }
            }
        }
        if !locked { throw noMatch(question) }
        // Locked (or --master-password-fd): opened here; without a terminal or a descriptor
        // that is exit 75, and stdout stays empty.
        let vault: Vault
        do {
            vault = try context.openVault()
        } catch {
            // ssh and sudo pass no descriptor: the agent is the way.
            guard let failure = error as? CommandFailure, failure.code == .interactionRequired else { throw error }
            throw CommandFailure(
                .interactionRequired,
                "the vault is locked and there is no terminal to ask for the master password: run `pwtui unlock` (the agent then answers askpass until it locks); nothing was answered"
            )
        }
        for query in question.queries {
            do {
                let credential = try context.answer(query, in: vault)
                let rendered = try question.field.render(credential, from: vault)
                return try rendered.withUnsafeBytes { try SecureBytes(copying: CredentialField.value(ofRendered: $0)) }
            } catch VaultError.noMatch {
                continue
            }
        }
        throw noMatch(question)
    }

    private func noMatch(_ question: Question) -> CommandFailure {
        CommandFailure(.noMatch, "no credential matches \(question.wanted); nothing was answered")
    }
}
