import ArgumentParser
import Commands
import SSHKeys
import VaultModel

/// `pwtui ssh generate|import|edit|list|export|socket`: SSH keys in the vault, served by the agent over the
/// ssh-agent protocol (docs/ssh.md).
struct SshCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ssh", abstract: "SSH keys kept in the vault and served by the agent to ssh.",
        discussion: """
            Example: a key for GitHub, then ssh through pwtui's agent
              pwtui ssh generate --title "laptop github" --host github.com
              pwtui agent start && pwtui unlock
              export SSH_AUTH_SOCK=$(pwtui ssh socket)
            An existing key, then the file removed:
              pwtui ssh import ~/.ssh/id_ed25519 --title "laptop" && shred -u ~/.ssh/id_ed25519
            """,
        subcommands: [Generate.self, Import.self, Edit.self, List.self, Export.self, Socket.self, Popup.self])

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate",
            abstract: "Make an SSH key in the vault; print its public key (an authorized_keys line).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var key: SSHKeyOptions

        @Option(help: "ed25519, rsa (rsa-sha2-256/512 signatures) or ecdsa (NIST P-256).")
        var type: SSHKeyType = .ed25519

        @Option(help: "An RSA key's size, 2048 to 8192 (default 3072); RSA only.")
        var bits: Int?

        func run() throws {
            try GenerateSSHKey(title: key.title, hosts: key.hosts, confirm: key.confirm, type: type, bits: bits)
                .run(in: global.context())
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change an SSH key's hosts or its approval policy.",
            discussion: """
                Examples:
                  pwtui ssh edit laptop --host github.com --host gitlab.com   # offered to these first, and only
                  pwtui ssh edit deploy --confirm never                         # signs without asking
                  pwtui ssh edit laptop --no-hosts                              # offered to any host
                """)
        @OptionGroup var global: GlobalOptions

        @Argument(help: "The key: its title, an id or a unique id prefix.")
        var id: String

        @Option(name: .customLong("host"), help: "A host it is for, replacing the ones it had (repeatable).")
        var hosts: [String] = []

        @Flag(help: "Bound to no host: offered to every host.")
        var noHosts = false

        @Option(help: "Approval of its signatures: each, session or never.")
        var confirm: SSHKeyItem.ConfirmPolicy?

        func validate() throws {
            if noHosts, !hosts.isEmpty { throw ValidationError("--no-hosts and --host: give one or the other") }
        }

        func run() throws {
            try EditSSHKey(id: id, hosts: noHosts ? [] : hosts.isEmpty ? nil : hosts, confirm: confirm)
                .run(in: global.context())
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Add an existing private key file to the vault; print its public key.",
            discussion: """
                Reads OpenSSH's format (plain, or with a passphrase: aes*-ctr, aes*-cbc, aes256-gcm,
                chacha20-poly1305) and PEM or PKCS#8 RSA, EC P-256 and Ed25519 keys. The passphrase
                comes from --passphrase-fd or a no-echo prompt. The file is left in place: remove it
                yourself once the key works from the vault.
                Example:
                  pwtui ssh import ~/.ssh/id_ed25519 --title "laptop" --passphrase-fd 3 3<passphrase-file
                """)
        @OptionGroup var global: GlobalOptions

        @Argument(help: "The private key file (e.g. ~/.ssh/id_ed25519).")
        var file: String

        @OptionGroup var key: SSHKeyOptions

        @Option(help: "Read the key's passphrase from this descriptor's first line.")
        var passphraseFd: Int32?

        func run() throws {
            try ImportSSHKey(
                file: file, title: key.title, hosts: key.hosts, confirm: key.confirm, passphraseFD: passphraseFd
            )
            .run(in: global.context())
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Print the public keys of the vault's SSH keys, titles as comments.")
        @OptionGroup var global: GlobalOptions

        @Option(help: "table (authorized_keys lines) or json.")
        var format: ListCredentials.Format = .table

        func run() throws {
            try ListSSHKeys(format: format).run(in: global.context())
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export", abstract: "Print one SSH key's public key, or with --private its private key.",
            discussion: """
                --private writes the private key in OpenSSH's format, unencrypted, after asking the
                master password (even with the agent unlocked); never to a terminal.
                Example:
                  pwtui ssh export 3f2a --private --output ~/.ssh/id_laptop
                """)
        @OptionGroup var global: GlobalOptions

        @Argument(help: "The key: its title, an id or a unique id prefix.")
        var id: String

        @Flag(name: .customLong("private"), help: "The private key (OpenSSH format, unencrypted), not the public one.")
        var includePrivate = false

        @Option(help: "With --private: write it to this file (0600) instead of stdout.")
        var output: String?

        @Flag(help: "With --output: replace a file already there.")
        var force = false

        func run() throws {
            try ExportSSHKey(id: id, includePrivate: includePrivate, output: output, force: force)
                .run(in: global.context())
        }
    }

    struct Socket: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "socket", abstract: "Print the agent's ssh-agent socket, for SSH_AUTH_SOCK or IdentityAgent.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try SSHSocket().run(in: global.context())
        }
    }

    /// What the agent runs in a tmux popup to ask the user (docs/ssh.md, "Approval").
    struct Popup: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "popup", abstract: "Ask the agent's question in a tmux popup.", shouldDisplay: false)
        @OptionGroup var global: GlobalOptions

        @Argument(help: "The file holding the question.")
        var question: String

        @Option(help: "The agent's socket the master password is sent to, when that is the question.")
        var answerSocket: String?

        @Option(help: "The agent's pid: the password goes only to a socket it listens on.")
        var agentProcess: Int32?

        func run() throws {
            let answer = try answerSocket.map { socket in
                guard let agentProcess else {
                    throw ValidationError("--answer-socket needs --agent-process")
                }
                return (socket: socket, agent: agentProcess)
            }
            try AnswerSSHPopup(questionFile: question, answer: answer).run(in: global.context())
        }
    }
}

extension SSHKeyItem.ConfirmPolicy: ExpressibleByArgument {}
extension SSHKeyType: ExpressibleByArgument {}
