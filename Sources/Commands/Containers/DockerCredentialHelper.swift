import FoundationEssentials
import Interchange
import Platform
import ServiceMatching
import UnicodeText
import VaultAgent
import VaultCrypto
import VaultModel

/// `docker-credential-pwtui` (a link to pwtui, which `make install` puts on PATH) or
/// `pwtui docker-credential OPERATION`: the docker-credential-helpers protocol, which docker
/// (`credsStore`, `credHelpers`) and podman (`credHelpers`) speak to keep registry logins out of
/// config.json and auth.json (docs/containers.md).
///
/// - get: the server URL on stdin (`127.0.0.1:5000`, `https://index.docker.io/v1/`); on stdout
///   `{"ServerURL":…,"Username":…,"Secret":…}` of the best credential for that very host
///   (`CredentialQuery.sameHost`), the secret written from protected memory. None: the helpers'
///   own `credentials not found in native keychain`, exit 1, which docker and podman read as "not
///   logged in" and go on anonymously.
/// - store: `{"ServerURL","Username","Secret"}` on stdin, read into protected memory
///   (`JSONReader`, never `JSONDecoder`). The same account's credential gets the new secret (the
///   old one kept in its history); a new one is added for `https://HOST`, titled
///   `HOST (container registry)`.
/// - erase: the server URL on stdin; removes the credentials `store` made for that host (titled
///   as above). A credential a person saved for the host is never removed by a logout: it is
///   named on stdout and kept (exit 1).
/// - list: `{"URL":"username",…}` of the container-registry credentials only (by their title),
///   not of the whole vault: docker's legacy builder gets every listed login.
///
/// As the real helpers do, every failure is its message on stdout (what docker and podman show)
/// with a non-zero exit; the exit code is pwtui's (64 for a malformed request, 75 when the vault
/// is locked and nobody can unlock it).
public struct DockerCredentialHelper {
    enum Operation: String, CaseIterable {
        case get, store, erase, list, version
    }

    /// What every docker-credential-helper says when it has nothing for a server
    /// (docker-credential-helpers' `credentials.ErrCredentialsNotFound`); clients compare it.
    public static let notFound = "credentials not found in native keychain"
    /// The title's ending that marks a credential this helper stored (`list`, `erase`).
    public static let registryTitleSuffix = " (container registry)"

    let context: CommandContext

    public init(context: CommandContext) {
        self.context = context
    }

    public func run(operation: String) throws {
        do {
            guard let known = Operation(rawValue: operation) else {
                throw CommandFailure(
                    .usage,
                    "Unknown credential action `\(PrintableText.echoed(operation))` (get, store, erase, list, version)")
            }
            switch known {
            case .get: try get(serverURL: try readServerURL())
            case .store: try store()
            case .erase: try erase(serverURL: try readServerURL())
            case .list: try list()
            case .version: try context.streams.write("docker-credential-pwtui (pwtui)\n")
            }
        } catch {
            // docker and podman show stdout, not stderr, when a helper fails. The message may
            // repeat what the peer sent (a server URL): every byte of it printable, never a raw
            // ESC or BEL for the terminal docker shows it on.
            try? context.streams.write(PrintableText.message("\(error)") + "\n")
            throw error
        }
    }

    // MARK: reading

    /// stdin whole, in protected memory (`store` carries a secret), at most `limit` bytes.
    private func readInput() throws -> SecureBytes {
        let limit = Limits.gitRequestBytes
        var input = try SecureBytes(capacity: 1024)
        let source = FileDescriptor(rawValue: context.streams.input.rawValue)
        while let byte = try source.readByte() {
            guard input.count < limit else {
                throw CommandFailure(.usage, "the request on stdin is longer than \(limit) bytes; nothing was done")
            }
            try input.append(byte)
        }
        return input
    }

    /// `get` and `erase`: the server URL, without surrounding whitespace.
    private func readServerURL() throws -> String {
        let input = try readInput()
        let text = input.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        let url = text.trimmingSpacesAndNewlines()
        guard !url.isEmpty else { throw CommandFailure(.usage, "no credentials server URL") }
        return url
    }

    /// The service a server URL names: a URL as it is, a bare `host[:port]` (what podman and
    /// docker send for every registry but Docker Hub) as `https://host[:port]`.
    static func service(forServerURL url: String) throws -> ServiceIdentifier {
        let text = url.contains("://") ? url : "https://\(url)"
        do {
            return try ServiceIdentifier(text)
        } catch {
            throw CommandFailure(
                .usage, "the server URL is not one a credential can name: \(PrintableText.message("\(error)"))")
        }
    }

    private func query(_ service: ServiceIdentifier, username: String? = nil) -> CredentialQuery {
        CredentialQuery(services: [service], username: username, tiers: CredentialQuery.sameHost)
    }

    /// The vault, through the agent or unlocked here; locked with nobody to ask is said in
    /// docker's terms (docker and podman pass no descriptor).
    private func open() throws -> VaultAccess {
        do {
            return try VaultAccess.open(context)
        } catch {
            guard let failure = error as? CommandFailure, failure.code == .interactionRequired else { throw error }
            throw CommandFailure(
                .interactionRequired,
                "the vault is locked and there is no terminal to ask for the master password: run `pwtui unlock` (the agent then answers docker and podman until it locks)"
            )
        }
    }

    // MARK: get

    private func get(serverURL: String) throws {
        let service = try Self.service(forServerURL: serverURL)
        let access = try open()
        guard let found = try access.password(for: query(service)) else {
            throw CommandFailure(.noMatch, Self.notFound, isAnswered: true)
        }
        var output = try SecureBytes(capacity: found.password.count * 2 + 256)
        try output.append(
            utf8:
                "{\"ServerURL\":\(JSONText.quote(serverURL)),\"Username\":\(JSONText.quote(found.identity.username)),\"Secret\":"
        )
        try found.password.withUnsafeBytes { try JSONText.appendQuoted($0, to: &output) }
        try output.append(utf8: "}\n")
        try context.streams.write(output)
    }

    // MARK: store

    /// docker's and podman's login, after the registry accepted it.
    private func store() throws {
        var request = try RegistryLogin.read(try readInput())
        let service = try Self.service(forServerURL: request.serverURL)
        guard let secret = request.secret.take() else { throw CommandFailure(.usage, "no credentials secret") }
        let access = try open()
        if let existing = try access.password(for: query(service, username: request.username)) {
            guard !existing.password.isEqual(to: secret) else { return }
            try access.apply(
                .edit(id: existing.identity.id.uuidString, CredentialChange.Edits(replacesSecret: true)), secret: secret
            )
            return
        }
        try access.apply(
            .add(
                services: [service.text], username: request.username, title: Self.title(for: service), notes: "",
                rank: 0),
            secret: secret)
    }

    /// `127.0.0.1:5000 (container registry)`: the host as a person reads it, and the mark.
    static func title(for service: ServiceIdentifier) -> String {
        let host = service.hostKind == .ipv6 ? "[\(service.host)]" : service.host
        return host + (service.port.map { ":\($0)" } ?? "") + registryTitleSuffix
    }

    // MARK: erase

    /// A logout: every container-registry credential `get` would answer for the host, removed.
    private func erase(serverURL: String) throws {
        let service = try Self.service(forServerURL: serverURL)
        let access = try open()
        var removed = 0
        var seen: Set<UUID> = []
        var kept: [String] = []
        var rejected: [UUID: Timestamp] = [:]
        while let found = try access.password(
            for: CredentialQuery(services: [service], tiers: CredentialQuery.sameHost, rejected: rejected)),
            seen.insert(found.identity.id).inserted
        {
            // Asked again without it: the next best, until none is left.
            rejected[found.identity.id] = found.secretSet
            guard found.identity.title.hasSuffix(Self.registryTitleSuffix) else {
                kept.append(found.identity.titleAndUsername)
                continue
            }
            try access.apply(.remove(id: found.identity.id.uuidString), secret: try SecureBytes(zeros: 0))
            removed += 1
        }
        if removed == 0, !kept.isEmpty {
            throw CommandFailure(
                .noMatch,
                "pwtui keeps \(kept.joined(separator: ", ")): saved by hand, not by a registry login; remove it with pwtui rm"
            )
        }
        if removed == 0 { throw CommandFailure(.noMatch, Self.notFound, isAnswered: true) }
    }

    // MARK: list

    /// The container-registry logins: server URL → username.
    private func list() throws {
        let identities: [IdentityStore.Identity]
        if let store = try? context.currentIdentityStore() {
            identities = store.identities  // no unlock needed: no secret is listed
        } else {
            identities = try open().identities().identities
        }
        var entries: [String] = []
        for identity in identities where identity.title.hasSuffix(Self.registryTitleSuffix) {
            for service in identity.services {
                entries.append("\(JSONText.quote(service)):\(JSONText.quote(identity.username))")
            }
        }
        try context.streams.write("{" + entries.joined(separator: ",") + "}\n")
    }
}
