import FoundationEssentials
import Interchange
import Platform
import VaultCrypto
import VaultAgent
import VaultModel
import ServiceMatching
import SSHKeys

// What each fuzzer feeds its input to, and what `make test` replays the seed corpus through: one
// function per decoder that reads bytes an attacker can write (a vault file, its decrypted
// payload, a typed or stored service, a message on the agent's socket, the identity store).
//
// Each entry only returns or throws for bad input; a crash, a trap or a sanitizer report is the
// finding. Where a decoder's output can be written back, the entry also checks that what it
// decoded survives a round trip, a mistake no crash would reveal.
public enum FuzzEntry: String, CaseIterable, Sendable {
    case vaultHeader = "VaultHeader"
    case payload = "PayloadCodec"
    case serviceIdentifier = "ServiceIdentifier"
    case agentMessage = "AgentMessage"
    case identityStore = "IdentityStore"
    case importFile = "ImportFile"
    case sshAgentMessage = "SSHAgentMessage"
    case sshKeyFile = "SSHKeyFile"
    case knownHosts = "KnownHosts"
    case askpassPrompt = "AskpassPrompt"
    case secretURI = "SecretURI"
    case dotEnv = "DotEnvFile"

    /// Feeds one input to the decoder this entry stands for.
    public func run(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .vaultHeader: Self.vaultHeader(bytes)
        case .payload: Self.payload(bytes)
        case .serviceIdentifier: Self.serviceIdentifier(bytes)
        case .agentMessage: Self.agentMessage(bytes)
        case .identityStore: Self.identityStore(bytes)
        case .importFile: Self.importFile(bytes)
        case .sshAgentMessage: Self.sshAgentMessage(bytes)
        case .sshKeyFile: Self.sshKeyFile(bytes)
        case .knownHosts: Self.knownHosts(bytes)
        case .askpassPrompt: Self.askpassPrompt(bytes)
        case .secretURI: Self.secretURI(bytes)
        case .dotEnv: Self.dotEnv(bytes)
        }
    }

    /// The header parser, on the input as it is and again with its checksum made right: almost
    /// every mutation breaks the checksum, and the fields behind it deserve the fuzzer's time too.
    static func vaultHeader(_ bytes: UnsafeRawBufferPointer) {
        parseAndReserialize(bytes)
        guard bytes.count >= VaultHeader.byteCount,
            let checksum = try? BLAKE2b.hash(UnsafeRawBufferPointer(rebasing: bytes[0 ..< 202]))
        else { return }
        var repaired = Array(bytes)
        repaired.replaceSubrange(202 ..< VaultHeader.byteCount, with: checksum)
        repaired.withUnsafeBytes(parseAndReserialize)
    }

    private static func parseAndReserialize(_ bytes: UnsafeRawBufferPointer) {
        guard let header = try? VaultHeader.parse(bytes, path: "fuzz") else { return }
        guard let again = try? header.serialized() else { fatalError("a parsed header does not serialize") }
        precondition(
            again.elementsEqual(bytes.prefix(VaultHeader.byteCount)), "a parsed header serializes to other bytes")
    }

    /// The decrypted-payload decoder; what it accepts must encode and decode to the same entries.
    static func payload(_ bytes: UnsafeRawBufferPointer) {
        guard let plaintext = try? SecureBytes(copying: bytes),
            let contents = try? PayloadCodec.decode(plaintext, path: "fuzz")
        else { return }
        do {
            let again = try PayloadCodec.decode(try PayloadCodec.encode(contents), path: "fuzz")
            precondition(
                again.credentials.map(\.id) == contents.credentials.map(\.id)
                    && again.credentials.map(\.services) == contents.credentials.map(\.services)
                    && again.tombstones.map(\.id) == contents.tombstones.map(\.id)
                    && again.equivalents.groups == contents.equivalents.groups,
                "decoded contents do not survive a round trip")
        } catch {
            fatalError("decoded contents do not re-encode: \(error)")
        }
    }

    /// The service parser, on the input read as UTF-8 (invalid sequences become U+FFFD, as they
    /// do wherever a service arrives as text).
    static func serviceIdentifier(_ bytes: UnsafeRawBufferPointer) {
        guard let service = try? ServiceIdentifier(String(decoding: bytes, as: UTF8.self)) else { return }
        precondition(service.host.utf8.allSatisfy { $0 < 0x80 }, "a parsed host is not ASCII")
    }

    /// The agent's framing: a header line, read as a request (what the agent reads) and as a
    /// reply (what a client reads), then the payload it announces.
    static func agentMessage(_ bytes: UnsafeRawBufferPointer) {
        guard let newline = bytes.firstIndex(of: 0x0A) else { return }
        for length in [
            (try? AgentFraming.header(AgentRequest.self, fromLine: bytes[..<newline]))?.length,
            (try? AgentFraming.header(AgentReply.self, fromLine: bytes[..<newline]))?.length,
        ] {
            guard let length else { continue }
            precondition(length >= 0 && length <= AgentFraming.maximumPayloadBytes, "a payload length out of bounds")
        }
    }

    /// The identity store's reader, unfiltered and filtered by a host.
    static func identityStore(_ bytes: UnsafeRawBufferPointer) {
        _ = try? IdentityStore.decode(bytes, filter: nil)
        _ = try? IdentityStore.decode(
            bytes,
            filter: { equivalents in
                HostFilter(
                    requests: hostFilterRequests,
                    context: RankingContext(suffixes: NoPublicSuffixList(), equivalents: equivalents))
            })
    }

    /// An export as `pwtui import` reads it, in every format a file can be (the input sniffed,
    /// then forced as JSON, XML and CSV), and what it reads planned into credentials: the
    /// readers and every format's mapping see bytes anyone can write.
    static func importFile(_ bytes: UnsafeRawBufferPointer) {
        for format in [nil, ImportFormat.bitwardenJSON, .keepassXML, .chrome, .bitwardenCSV] {
            guard let batch = try? ImportReader.read(bytes: bytes, format: format),
                let arena = try? SecretArena()
            else { continue }
            let plan = ImportPlan(
                batch, existing: [], existingSecrets: arena, policy: .update,
                now: Timestamp(millisecondsSince1970: 0), suffixes: NoPublicSuffixList())
            precondition(plan.steps.count == batch.entries.count + batch.rejected.count, "an entry without a decision")
        }
    }

    /// A message's body on the ssh-agent socket (its type and contents, as `SSHAgentServer` hands
    /// it on), and the same bytes as a host key blob: a forwarded agent hears from remote hosts.
    /// A sign request that parses must re-encode to the bytes it came from (flags may be left
    /// off; what follows them is ignored, as OpenSSH's agent ignores it); a session binding's host
    /// key and signature go through the checks the server makes.
    static func sshAgentMessage(_ bytes: UnsafeRawBufferPointer) {
        let body = Array(bytes)
        switch try? SSHAgentProtocol.request(body) {
        case .sign(let keyBlob, let data, let flags):
            let encoded =
                [SSHAgentProtocol.MessageType.signRequest.rawValue] + SSHWire.string(keyBlob)
                + SSHWire.string(data)
            precondition(
                body == encoded && flags == 0 || body.starts(with: encoded + SSHWire.uint32(flags)),
                "a sign request does not re-encode to its bytes")
            let bound = SSHAgentConnection(
                peer: nil, bindings: [.init(hostKey: keyBlob, sessionID: Array(data.prefix(32)), isForwarding: false)])
            _ = bound.allowsSigning(data)
        case .sessionBind(let bind):
            guard let hostKey = try? SSHHostKey(blob: bind.hostKey) else { break }
            _ = hostKey.verifies(bind.signature, of: bind.sessionID)
        default:
            break
        }
        if let hostKey = try? SSHHostKey(blob: body) { _ = hostKey.verifies(body, of: body) }
    }

    /// A private key file as `ssh import` reads it, with no passphrase to give: an encrypted file
    /// stops where the passphrase would be asked (a key derivation per input would leave the
    /// fuzzer no time), so what is fuzzed is each format's own parsing, which the decrypted bytes
    /// of an encrypted file go through too. A key read must write out as `ssh export --private`
    /// writes it and read back as the same key.
    static func sshKeyFile(_ bytes: UnsafeRawBufferPointer) {
        guard let (type, publicBlob) = try? keyRead(from: bytes) else { return }
        do {
            let written = try rewritten(bytes)
            let again = try written.withUnsafeBytes { try keyRead(from: $0) }
            precondition(again.type == type, "a key written out reads back as another type")
            precondition(again.publicBlob == publicBlob, "a key written out reads back as another key")
        } catch {
            fatalError("a key that was read does not write out and read back: \(error)")
        }
    }

    /// The type and public blob of the key in a file, read as `ssh import` reads it.
    private static func keyRead(from file: UnsafeRawBufferPointer) throws -> (type: SSHKeyType, publicBlob: [UInt8]) {
        let read = try SSHKeyFile.read(file, passphrase: { throw SSHKeyFileError.needsPassphrase })
        return (read.type, try SSHPrivateKey.publicKeyBlob(read.key))
    }

    /// The key in a file, written out as `ssh export --private` writes it.
    private static func rewritten(_ file: UnsafeRawBufferPointer) throws -> SecureBytes {
        let read = try SSHKeyFile.read(file, passphrase: { throw SSHKeyFileError.needsPassphrase })
        return try OpenSSHKeyWriter.file(for: read.key, comment: "fuzz")
    }

    /// The user's known_hosts text (`KnownHosts.parse`), and every question the agent asks of
    /// it: each line's key by each of its names. A name a line holds and does not negate is known
    /// for that line's key, and the wildcard matcher matches any text to itself.
    static func knownHosts(_ bytes: UnsafeRawBufferPointer) {
        let known = KnownHosts.parse(String(decoding: bytes, as: UTF8.self))
        for line in known.lines.prefix(64) {
            _ = known.names(of: line.keyBlob)
            for name in line.names.prefix(16) {
                precondition(KnownHosts.wildcard(name, matches: name), "a name does not match itself")
                if !line.negated.contains(where: { KnownHosts.wildcard($0, matches: name) }),
                    !name.contains("[")
                {
                    precondition(known.knows(name, as: line.keyBlob), "a name a line holds is not known for its key")
                }
            }
            for (index, hashed) in line.hashed.prefix(4).enumerated() {
                _ = KnownHosts.hashed("host\(index)", salt: hashed.salt, is: hashed.hash)
            }
        }
    }

    /// A prompt git, ssh or sudo shows `pwtui askpass` (`AskpassPrompt`): whatever it reads, each
    /// user, host and path it names is a run of the prompt's own bytes, a user never empty and a
    /// host (after the last '@') never holding one.
    static func askpassPrompt(_ bytes: UnsafeRawBufferPointer) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let prompt = AskpassPrompt(text) else { return }
        let own = Array(text.utf8)
        func inPrompt(_ part: String) -> Bool { own.firstRange(of: Array(part.utf8)) != nil }
        switch prompt {
        case .gitUsername(let url):
            precondition(inPrompt(url), "a git URL not in the prompt")
        case .gitPassword(_, let user):
            precondition(user.map { !$0.isEmpty && inPrompt($0) } ?? true, "a git user not in the prompt")
        case .sshPassword(let user, let host):
            precondition(!user.isEmpty && inPrompt(user) && inPrompt(host), "an ssh user or host not in the prompt")
            precondition(!host.contains("@"), "a host with an '@'")
        case .keyPassphrase(let path):
            precondition(inPrompt(path), "a key path not in the prompt")
        case .sudoPassword(let user):
            precondition(inPrompt(user) && !user.contains(" "), "a sudo user not in the prompt")
        }
    }

    /// A `pwtui://` reference as `run` and `inject` read one (`SecretURI`): one it reads names a
    /// credential (never an empty name), and reads the same again.
    static func secretURI(_ bytes: UnsafeRawBufferPointer) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let uri = try? SecretURI(text) else { return }
        precondition(!uri.name.isEmpty, "a reference with no name")
        let again = try? SecretURI(text)
        precondition(again == uri, "a reference read twice reads differently")
    }

    /// An `.env` file (`DotEnvFile`): every variable it sets has a name the file format allows.
    static func dotEnv(_ bytes: UnsafeRawBufferPointer) {
        guard let file = try? DotEnvFile(text: String(decoding: bytes, as: UTF8.self), path: ".env") else { return }
        for variable in file.variables {
            precondition(DotEnvFile.isName(variable.name), "a variable set under a name that is not one")
        }
    }

    private static let hostFilterRequests = ["github.com", "https://login.example.co.uk/"].compactMap {
        try? ServiceIdentifier($0)
    }
}
