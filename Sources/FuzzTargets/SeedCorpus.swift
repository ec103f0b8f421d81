import FoundationEssentials
import Interchange
import Platform
import VaultCrypto
import VaultAgent
import VaultModel
import ServiceMatching
import SSHKeys

/// The seed corpus, made from real encodings: a vault saved by `Vault`, its payload as
/// `PayloadCodec` encodes it, the identity store `IdentityStore` writes, the header lines the agent
/// and its clients send, and services as users type them. `make fuzz-seeds` writes it under
/// Fuzz/Corpus/<entry>/; the files are committed, so regenerating is needed only when a format
/// changes.
public enum SeedCorpus {
    public static func write(to directory: String) throws {
        let scratch = Paths(environment: .process).temporaryDirectory + "/pwtui-seeds-" + UUID().uuidString
        try FileSystem.makeDirectories(scratch)
        defer { try? FileSystem.removeTree(scratch) }

        var seeds: [FuzzEntry: [String: [UInt8]]] = [:]
        for (name, credentials) in [("empty", 0), ("one", 1), ("three", 3), ("items", -1)] {
            let vault = try sampleVault(at: scratch + "/\(name).pwv", credentials: credentials)
            let file = try wholeFile(vault.path)
            seeds[.vaultHeader, default: [:]][name] = Array(file.prefix(VaultHeader.byteCount))
            seeds[.payload, default: [:]][name] = try PayloadCodec.encode(vault.contents).withUnsafeBytes { Array($0) }
            let store = scratch + "/\(name).identities"
            try IdentityStore(vault: vault).save(to: store)
            seeds[.identityStore, default: [:]][name] = try wholeFile(store)
            // The vault exported in each format `pwtui export` writes; the hand-written samples of
            // the other managers' formats (Tests/InterchangeTests/Samples) are in the corpus too.
            for format in ExportFormat.allCases {
                var writer = ExportWriter(format: format)
                seeds[.importFile, default: [:]]["\(name).\(format.rawValue)"] = try writer.write(vault).withUnsafeBytes
                { Array($0) }
            }
        }
        for (index, service) in services.enumerated() {
            seeds[.serviceIdentifier, default: [:]]["service-\(index)"] = Array(service.utf8)
        }
        for (index, message) in agentMessages.enumerated() {
            seeds[.agentMessage, default: [:]]["message-\(index)"] = Array(message.utf8)
        }
        for (index, message) in try sshAgentMessages().enumerated() {
            seeds[.sshAgentMessage, default: [:]]["message-\(index)"] = message
        }
        // Keys as `ssh export --private` writes them; files made by ssh-keygen and openssl (encrypted,
        // PEM, PKCS#8) are in Fuzz/Corpus/SSHKeyFile/ beside these, made by hand once.
        for type in SSHKeyType.allCases {
            let key = try type.newPrivateKey(bits: type == .rsa ? 2048 : nil)
            seeds[.sshKeyFile, default: [:]][type.rawValue] = try OpenSSHKeyWriter.file(for: key, comment: "seed")
                .withUnsafeBytes { Array($0) }
        }
        for (entry, texts) in textSeeds {
            for (index, text) in texts.enumerated() { seeds[entry, default: [:]]["text-\(index)"] = Array(text.utf8) }
        }
        for (entry, files) in seeds {
            let folder = directory + "/" + entry.rawValue
            try FileSystem.makeDirectories(folder)
            for (name, bytes) in files {
                try Data(bytes).write(to: URL(fileURLWithPath: folder + "/seed-" + name))
            }
        }
    }

    /// A file just written, through the one funnel (`RegularFile`); the vault has no size bound.
    private static func wholeFile(_ path: String) throws -> [UInt8] {
        guard let bytes = try RegularFile.readIfPresent(path, limit: .max) else { throw Vanished(path: path) }
        return bytes
    }

    /// A file this run wrote was gone when read back (something else cleaned the scratch folder).
    private struct Vanished: Error, ExitStatusReporting {
        let path: String
        var exitStatus: ExitStatus { .ioError }
    }

    /// `credentials` -1: what format 1.3 adds (an item without a site, app links, named fields).
    private static func sampleVault(at path: String, credentials: Int) throws -> Vault {
        let password = try SecureBytes(copying: Array("correct horse".utf8))
        let vault = try Vault.create(at: path, password: password, parameters: .minimumForWriting)
        if credentials < 0 {
            let wifi = try vault.add(
                services: [], username: "", secret: try SecureBytes(copying: Array("wifi".utf8)), title: "Home Wi-Fi")
            try vault.setField(of: wifi.id, name: "SSID", text: "home", secret: try SecureBytes(zeros: 0))
            let app = try vault.add(
                services: [
                    try ServiceIdentifier("android://aGFzaA==@com.example.app/"),
                    try ServiceIdentifier("iosapp://com.example.ios"), try ServiceIdentifier("example.com"),
                ],
                username: "kim", secret: try SecureBytes(copying: Array("app".utf8)), title: "App")
            try vault.setField(of: app.id, name: "PIN", text: nil, secret: try SecureBytes(copying: Array("1234".utf8)))
            try vault.setField(of: app.id, name: "PIN", text: nil, secret: try SecureBytes(copying: Array("5678".utf8)))
            try vault.save()
            return vault
        }
        let samples: [(services: [String], username: String, title: String)] = [
            (["github.com", "https://gist.github.com/login"], "octocat", "GitHub"),
            (["*.example.co.uk:8443", "webcredentials:bücher.example"], "anna@example.org", ""),
            (["192.168.1.1", "[2001:db8::1]:8080", "localhost"], "admin", "Router"),
        ]
        for sample in samples.prefix(credentials) {
            _ = try vault.add(
                services: try sample.services.map { try ServiceIdentifier($0) }, username: sample.username,
                secret: try SecureBytes(copying: Array("s3cret-\(sample.username)".utf8)), title: sample.title)
        }
        if credentials == samples.count {  // a tombstone too
            let removed = try vault.add(
                services: [try ServiceIdentifier("old.example")], username: "gone",
                secret: try SecureBytes(copying: Array("x".utf8)))
            try vault.remove(removed.id)
        }
        if credentials > 0 {
            vault.updateEquivalents { groups, _ in
                groups = EquivalentDomains(groups: [["github.com", "githubusercontent.com"]])
            }
        }
        try vault.save()
        return vault
    }

    /// What the user's files and other programs write that pwtui reads as text: known_hosts lines
    /// (plain, hashed, wildcard, negated, on a port, marked), the prompts of git, ssh, ssh-add and
    /// sudo, `pwtui://` references and `.env` files.
    static let textSeeds: [FuzzEntry: [String]] = [
        .knownHosts: [
            "github.com,140.82.121.4 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n",
            "|1|F1E1KeoE/eEWhi10WpGv4OdiO6Y=|3988QV0VE8wmZL7suNrYQLITLCg= ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n",
            "*.example.com,!bad.example.com [git.example.org]:2222 ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBEmKSENjQEezOmxkZMy7opKgwFB9nkt5YRrYMjNuG5N87uRgg6CLrbo5wAdT/y6v0mKV0U2w0WZ2YB/++Tpockg= comment\n",
            "# a comment\n@revoked * ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ==\n@cert-authority *.example ssh-ed25519 AAAA\nbroken line\n",
        ],
        .askpassPrompt: [
            "Username for 'https://github.com': ", "Password for 'https://octocat@github.com': ",
            "alice@build.example's password: ", "(alice@build.example) Password: ",
            "Enter passphrase for key '/home/alice/.ssh/id_ed25519': ",
            "Enter passphrase for /home/alice/.ssh/id_rsa (will confirm each use): ", "[sudo] password for alice: ",
        ],
        .secretURI: [
            "pwtui://github.com", "pwtui://github.com/username", "pwtui://Home%20bank/PIN", "pwtui://a%2Fb/c%2Fd",
            "pwtui://1f3c9a2b/totp", "pwtui://registry.example:5000/password",
        ],
        .dotEnv: [
            "A=1\nexport B = two words # comment\nC='single # kept'\nD=\"x\\ny \\\"q\\\"\"\nE=\nF=pwtui://github.com\n",
            "# only a comment\n\nTOKEN=pwtui://api.example/key\r\n",
            "GOOD=1\nBAD='unterminated\n",
        ],
    ]

    private static let services = [
        "github.com", "https://github.com:8443/login?x=1#y", "webcredentials:*.example.com:8443",
        "http://[2001:db8::1]:8080/", "192.168.0.1", "bücher.example", "xn--bcher-kva.example",
        "*.co.uk", "localhost", "https://пример.рф/путь", "EXAMPLE.COM.", "http://a.b.c.d.e.f.g.h/",
        "android://aGFzaA==@com.example.app/", "androidapp://com.example.app", "iosapp://com.example.ios",
    ]

    /// Bodies (type and contents) as OpenSSH's clients send them: a list, sign requests with and
    /// without flags, a session binding signed by an Ed25519 host key (RFC 8032's first), a
    /// lock, an add (refused), an unknown extension; and host key blobs of each type checked.
    private static func sshAgentMessages() throws -> [[UInt8]] {
        let seed = try SecureBytes(copying: (0 ..< 32).map { UInt8($0) })
        let hostKey = SSHWire.ed25519KeyBlob(try Ed25519.publicKey(seed: seed))
        let session = (0 ..< 32).map { UInt8(255 - $0) }
        let signature = SSHWire.ed25519SignatureBlob(
            try session.withUnsafeBytes { try Ed25519.sign($0, seed: seed) })
        func body(_ type: SSHAgentProtocol.MessageType, _ contents: [UInt8]) -> [UInt8] {
            Array(SSHAgentProtocol.message(type, contents).dropFirst(4))
        }
        let login =
            SSHWire.string(session) + [50] + SSHWire.string(Array("git".utf8))
            + SSHWire.string(Array("ssh-connection".utf8)) + SSHWire.string(Array("publickey".utf8))
            + [1] + SSHWire.string(Array("ssh-ed25519".utf8)) + SSHWire.string(hostKey)
        let name = { (text: String) in SSHWire.string(Array(text.utf8)) }
        return [
            body(.requestIdentities, []),
            body(.signRequest, SSHWire.string(hostKey) + SSHWire.string(login)),
            body(.signRequest, SSHWire.string(hostKey) + SSHWire.string(login) + [0, 0, 0, 4]),
            body(
                .extension,
                name(SSHAgentProtocol.sessionBindExtension) + SSHWire.string(hostKey)
                    + SSHWire.string(session) + SSHWire.string(signature) + [0]),
            body(.lock, name("a lock password")),
            [17] + name("ssh-ed25519") + SSHWire.string(hostKey),
            body(.extension, name("query")),
            hostKey,
            SSHWire.rsaKeyBlob(exponent: [1, 0, 1], modulus: [0xC1] + [UInt8](repeating: 0x5A, count: 255)),
            SSHWire.ecdsaP256KeyBlob(point: [4] + [UInt8](repeating: 0x11, count: 64)),
        ]
    }

    /// Header lines as `AgentConnection` writes them (sorted keys), with their payloads.
    private static let agentMessages = [
        #"{"body":{"status":{}},"length":0}"# + "\n",
        #"{"body":{"unlock":{}},"length":13}"# + "\ncorrect horse",
        #"{"body":{"get":{"field":"password","query":{"services":["github.com"]},"vault":"/home/u/.local/share/pwtui/vault.pwtui"}},"length":0}"#
            + "\n",
        #"{"body":{"credential":{"identity":{"hosts":["github.com"],"id":"0B7C7E2A-93F4-4D0E-9A43-2B8F0C8D3E11","rank":0,"services":["github.com"],"title":"GitHub","username":"octocat"},"secretSet":1700000000000,"tied":1}},"length":6}"#
            + "\nhunter",
        #"{"body":{"refused":{"message":"refused","status":77}},"length":0}"# + "\n",
    ]
}
