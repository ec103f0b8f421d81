import Platform
import SSHKeys
import VaultAgent
import VaultCrypto
import VaultModel

/// `pwtui ssh import FILE`: an existing private key (OpenSSH's format, PEM or PKCS#8; plain or
/// with a passphrase: `SSHKeyFile`) added to the vault as `ssh generate` adds a new one
/// (`SSHKeyAddition`); its public key on stdout.
///
/// The file's bytes, the decoded base64, the passphrase and every decrypted byte are in protected
/// memory; the key is written nowhere but the vault. The file itself is left where it is: pwtui
/// did not make it and cannot know whether a backup or another machine still relies on it, so it
/// says the file can now be removed and leaves that to the user.
public struct ImportSSHKey {
    public var file: String
    public var title: String
    public var hosts: [String]
    public var confirm: SSHKeyItem.ConfirmPolicy
    /// The descriptor the passphrase is read from (its first line); nil: asked on the terminal.
    public var passphraseFD: Int32?

    /// A key file is a few kilobytes (an 8192-bit RSA key in PEM about 6.5 KB); anything much
    /// larger is not one.
    static let maximumFileBytes = 64 * 1024

    public init(
        file: String, title: String, hosts: [String], confirm: SSHKeyItem.ConfirmPolicy, passphraseFD: Int32? = nil
    ) {
        self.file = file
        self.title = title
        self.hosts = hosts
        self.confirm = confirm
        self.passphraseFD = passphraseFD
    }

    public func run(in context: CommandContext) throws {
        let addition = try SSHKeyAddition(title: title, hosts: hosts, confirm: confirm).checked()
        var bytes = try SecureBytes(capacity: 4096)
        do {
            guard try RegularFile.readIfPresent(file, into: &bytes, limit: Self.maximumFileBytes) else {
                throw CommandFailure(.noVault, "no file at \(file)")
            }
        } catch let failure as RegularFile.Failure {
            if case .tooLarge = failure {
                throw CommandFailure(
                    .corrupt, "\(file): larger than \(Self.maximumFileBytes / 1024) KiB, so not a private key file")
            }
            throw CommandFailure(.ioError, "\(failure)")
        }
        let read: ImportedSSHKey
        do {
            read = try bytes.withUnsafeBytes { try SSHKeyFile.read($0, passphrase: passphrase(in: context)) }
        } catch let error as SSHKeyFileError {
            throw CommandFailure(error.exitStatus, "\(file): \(error)")
        }
        bytes.removeAll()
        let privateKey = read.takeKey()
        let line = try addition.line(of: privateKey)
        let access = try VaultAccess.open(context)
        try refuseDuplicate(line, through: access)
        let made = try addition.add(privateKey, line: line, through: access)
        let id = made.id.uuidString.lowercased().prefix(8)
        try context.streams.write(line + "\n", afterSaving: "the imported SSH key \(id)")
        context.streams.say(
            "Imported \(file) as \(id). The vault now holds the key, so the file can be removed "
                + "(shred -u \(file)) once you no longer need it elsewhere; pwtui leaves that to you.")
    }

    /// The passphrase source: `--passphrase-fd`, else a no-echo prompt on the terminal, else a refusal.
    private func passphrase(in context: CommandContext) -> () throws -> SecureBytes {
        { [file, passphraseFD] in
            if let passphraseFD {
                return try SecretReader.firstLine(of: passphraseFD, what: "--passphrase-fd \(passphraseFD)")
            }
            guard let prompt = context.terminalPrompt() else { throw SSHKeyFileError.needsPassphrase }
            return try prompt.readSecret(prompt: "Passphrase for \(file): ")
        }
    }

    /// Refuses a key already in the vault (the same public blob as an SSH key item's), naming it.
    private func refuseDuplicate(_ line: String, through access: VaultAccess) throws {
        let blob = line.split(separator: " ").dropFirst().first
        let keys = try access.identities().identities.filter { $0.kind == .sshKey }
        for entry in try SSHKeyListing.entries(of: keys, through: access)
        where entry.publicKey.split(separator: " ").dropFirst().first == blob {
            let id = entry.identity.id.uuidString.lowercased().prefix(8)
            throw CommandFailure(
                .usage,
                "this key is already in the vault as \(id) (\(entry.identity.displayTitle)); nothing was imported")
        }
    }
}
