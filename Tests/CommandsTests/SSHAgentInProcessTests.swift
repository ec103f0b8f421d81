// The ssh-agent protocol in one process: the wire encodings against published values (RFC 8032's
// first key, OpenSSH's blob layout), the server's framing limits over a socket pair, and the
// agent's service answering with the vault's keys, locked and unlocked.

import Foundation
import Platform
import PwtuiTestSupport
@testable import Commands
import Testing
import ServiceMatching
import SSHKeys
import VaultAgent
import VaultCrypto
import VaultModel

@Suite("ssh-agent protocol, in process")
struct SSHAgentInProcessTests {
    /// RFC 8032 test 1's public key.
    static let rfcPublicKey = hex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")

    @Test("the Ed25519 public key blob and authorized_keys line: string \"ssh-ed25519\", string key")
    func publicKeyEncoding() {
        let blob = SSHWire.ed25519KeyBlob(Self.rfcPublicKey)
        #expect(blob == [0, 0, 0, 11] + Array("ssh-ed25519".utf8) + [0, 0, 0, 32] + Self.rfcPublicKey)
        // The base64 computed apart (Python's base64 over the same layout).
        #expect(
            SSHWire.authorizedKeysLine(ed25519PublicKey: Self.rfcPublicKey, comment: "rfc 8032\n one")
                == "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINdamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea rfc 8032 one")
        let signature = [UInt8](repeating: 7, count: 64)
        #expect(
            SSHWire.ed25519SignatureBlob(signature)
                == [0, 0, 0, 11] + Array("ssh-ed25519".utf8) + [0, 0, 0, 64] + signature)
    }

    @Test("messages: a sign request parsed, with and without flags; answers framed with their length")
    func messages() throws {
        let blob = SSHWire.ed25519KeyBlob(Self.rfcPublicKey)
        let data: [UInt8] = [1, 2, 3]
        let body = [13] + SSHWire.string(blob) + SSHWire.string(data)
        #expect(try SSHAgentProtocol.request(body + [0, 0, 0, 4]) == .sign(keyBlob: blob, data: data, flags: 4))
        #expect(try SSHAgentProtocol.request(body) == .sign(keyBlob: blob, data: data, flags: 0))
        #expect(try SSHAgentProtocol.request([11]) == .requestIdentities)
        #expect(try SSHAgentProtocol.request([17, 0, 0]) == .unsupported(type: 17))
        #expect(throws: SSHAgentProtocol.Malformed.self) { try SSHAgentProtocol.request(Array(body.dropLast())) }
        #expect(SSHAgentProtocol.failure == [0, 0, 0, 1, 5])
        let answer = SSHAgentProtocol.identitiesAnswer([.init(keyBlob: [9, 9], comment: "k")])
        #expect(answer == [0, 0, 0, 16, 12, 0, 0, 0, 1, 0, 0, 0, 2, 9, 9, 0, 0, 0, 1, UInt8(ascii: "k")])
    }

    /// A handler with one made-up key that signs with RFC 8032's first seed; counts its calls.
    final class StubKeys: SSHAgentHandler, @unchecked Sendable {
        let seed: SecureBytes
        var signatures = 0
        /// The connection the last request came on: what it was bound to.
        var lastConnection: SSHAgentConnection?
        init() throws {
            seed = try secure(hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"))
        }
        func sshIdentities(for connection: SSHAgentConnection) -> [SSHAgentProtocol.Identity] {
            lastConnection = connection
            return [
                .init(keyBlob: SSHWire.ed25519KeyBlob(SSHAgentInProcessTests.rfcPublicKey), comment: "stub")
            ]
        }
        func sshSign(keyBlob: [UInt8], data: [UInt8], flags: UInt32, for connection: SSHAgentConnection) -> [UInt8]? {
            signatures += 1
            lastConnection = connection
            guard let signature = try? data.withUnsafeBytes({ try Ed25519.sign($0, seed: seed) }) else { return nil }
            return SSHWire.ed25519SignatureBlob(signature)
        }
        func sshLock() {}
        func sshUnlock(password: consuming SecureBytes) -> Bool { false }
    }

    /// A server with `handler` and short deadlines, and a connection to it.
    static func connect(_ handler: any SSHAgentHandler, messageTimeout: Duration = .milliseconds(300)) throws -> (
        SSHAgentServer, FileDescriptor
    ) {
        let server = SSHAgentServer(
            socketPath: "", handler: handler, messageTimeout: messageTimeout,
            idleTimeout: .seconds(2))
        let connection = try #require(server.connectInProcess())
        return (server, connection)
    }

    static func send(_ bytes: [UInt8], to descriptor: FileDescriptor) throws {
        try bytes.withUnsafeBytes { try descriptor.sendAll($0, before: .after(.seconds(2))) }
    }

    /// Everything until the peer closes (or resets: a socket closed with our bytes unread), or
    /// nil when it is still open after `time`.
    static func readToEnd(_ descriptor: FileDescriptor, within time: Duration) -> [UInt8]? {
        let deadline = Deadline.after(time)
        var received: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 4096)
        while true {
            do {
                let got = try block.withUnsafeMutableBytes { try descriptor.readSome(into: $0, before: deadline) }
                if got == 0 { return received }
                received += block[..<got]
            } catch {
                return (error as? SystemError)?.isTimeout == true ? nil : received
            }
        }
    }

    /// One whole reply message.
    static func reply(_ descriptor: FileDescriptor) throws -> [UInt8] {
        let deadline = Deadline.after(.seconds(2))
        var received: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 4096)
        while received.count < 4 || received.count < 4 + SSHWire.length(received.prefix(4)) {
            let got = try block.withUnsafeMutableBytes { try descriptor.readSome(into: $0, before: deadline) }
            try #require(got > 0, "the agent closed the connection")
            received += block[..<got]
        }
        return received
    }

    @Test("several messages on one connection: list, add (refused), sign — the signature verifies")
    func conversation() throws {
        let keys = try StubKeys()
        let (_, connection) = try Self.connect(keys)
        defer { connection.close() }
        try Self.send(SSHAgentProtocol.message(.requestIdentities), to: connection)
        let listed = try Self.reply(connection)
        #expect(listed[4] == 12)
        #expect(listed.count > 60)
        // SSH2_AGENTC_ADD_IDENTITY (17) with a made-up key: refused, and the connection goes on.
        try Self.send([0, 0, 0, 9, 17] + SSHWire.string(Array("abcd".utf8)), to: connection)
        #expect(try Self.reply(connection) == [0, 0, 0, 1, 5])
        // SSH_AGENTC_REMOVE_ALL_IDENTITIES (19): refused too.
        try Self.send([0, 0, 0, 1, 19], to: connection)
        #expect(try Self.reply(connection) == [0, 0, 0, 1, 5])
        let data = Array("session data".utf8)
        let blob = SSHWire.ed25519KeyBlob(Self.rfcPublicKey)
        try Self.send(
            SSHAgentProtocol.message(
                .signRequest, SSHWire.string(blob) + SSHWire.string(data) + [0, 0, 0, 0]),
            to: connection)
        let signed = try Self.reply(connection)
        #expect(signed[4] == 14)
        // uint32 length, type, string(string "ssh-ed25519", string signature(64)).
        #expect(signed.count == 4 + 1 + 4 + 15 + 4 + 64)
        let signature = Array(signed.suffix(64))
        #expect(try data.withUnsafeBytes { try Ed25519.verify(signature, of: $0, publicKey: Self.rfcPublicKey) })
        #expect(keys.signatures == 1)
    }

    @Test("an oversized, empty or truncated message closes the connection, unanswered")
    func framingLimits() throws {
        let keys = try StubKeys()
        // 256 KiB + 1: closed before any of it is read.
        let (_, oversized) = try Self.connect(keys)
        defer { oversized.close() }
        try Self.send(SSHWire.uint32(UInt32(SSHAgentProtocol.maximumMessageBytes + 1)) + [13], to: oversized)
        #expect(Self.readToEnd(oversized, within: .seconds(2)) == [])

        let (_, empty) = try Self.connect(keys)
        defer { empty.close() }
        try Self.send([0, 0, 0, 0], to: empty)
        #expect(Self.readToEnd(empty, within: .seconds(2)) == [])

        // Announces 100 bytes, sends 10, then stops sending.
        let (_, truncated) = try Self.connect(keys)
        defer { truncated.close() }
        try Self.send([0, 0, 0, 100, 13] + [UInt8](repeating: 0, count: 9), to: truncated)
        truncated.shutdown(.sending)
        #expect(Self.readToEnd(truncated, within: .seconds(2)) == [])
        #expect(keys.signatures == 0)

        // A sign request whose strings run past its end: answered with failure.
        let (_, malformed) = try Self.connect(keys)
        defer { malformed.close() }
        try Self.send(SSHAgentProtocol.message(.signRequest, [0, 0, 0, 50, 1]), to: malformed)
        #expect(try Self.reply(malformed) == [0, 0, 0, 1, 5])
    }

    @Test("a client that never finishes its message is cut off at the deadline")
    func neverFinishes() throws {
        let (_, slow) = try Self.connect(try StubKeys(), messageTimeout: .milliseconds(300))
        defer { slow.close() }
        let start = ContinuousClock.now
        try Self.send([0, 0], to: slow)
        #expect(Self.readToEnd(slow, within: .seconds(3)) == [])
        let waited = ContinuousClock.now - start
        #expect(waited >= .milliseconds(250) && waited < .seconds(2), "\(waited)")
    }

    /// A lock (22) or unlock (23) message with `password`.
    static func lockMessage(_ type: SSHAgentProtocol.MessageType, _ password: String) -> [UInt8] {
        SSHAgentProtocol.message(type, SSHWire.uint32(UInt32(password.utf8.count)) + Array(password.utf8))
    }

    @Test("ssh-add -x locks the agent's vault; ssh-add -X unlocks it with the master password only")
    func lockAndUnlock() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        try GenerateSSHKey(title: "k", hosts: [], confirm: .never).run(in: fixture.context)
        let (_, connection) = try Self.connect(fixture.service)
        defer { connection.close() }
        let success: [UInt8] = [0, 0, 0, 1, 6], failure: [UInt8] = [0, 0, 0, 1, 5]
        #expect(fixture.service.sshIdentities(for: SSHAgentConnection(peer: nil)).count == 1)

        try Self.send(Self.lockMessage(.lock, "any lock password"), to: connection)
        #expect(try Self.reply(connection) == success)
        #expect(
            fixture.service.sshIdentities(for: SSHAgentConnection(peer: nil)).count == 1,
            "locked: the vault is dropped, the key listed from the identity store")
        guard case .status(let state) = try fixture.client.request(.status)?.body else {
            Issue.record("no status")
            return
        }
        #expect(state.locked, "pwtui's own socket sees the lock too")

        try Self.send(Self.lockMessage(.unlock, "any lock password"), to: connection)
        #expect(try Self.reply(connection) == failure, "the lock's password is not the master password")
        try Self.send(Self.lockMessage(.unlock, "master"), to: connection)
        #expect(try Self.reply(connection) == success)
        #expect(fixture.service.sshIdentities(for: SSHAgentConnection(peer: nil)).count == 1)
        // A lock message whose string is cut short: failure, nothing changes.
        try Self.send(SSHAgentProtocol.message(.lock, [0, 0, 0, 9, 1, 2]), to: connection)
        #expect(try Self.reply(connection) == failure)
        #expect(fixture.service.sshIdentities(for: SSHAgentConnection(peer: nil)).count == 1)
    }

    @Test("the agent's service: no keys and no signature while locked; unlocked, the vault's key signs")
    func service() throws {
        let fixture = try AgentInProcessTests.Fixture()
        let (_, connection) = try Self.connect(fixture.service)
        defer { connection.close() }
        try Self.send(SSHAgentProtocol.message(.requestIdentities), to: connection)
        #expect(try Self.reply(connection) == [0, 0, 0, 5, 12, 0, 0, 0, 0])

        _ = try fixture.unlock()
        // An `each` key: every signature is approved, here by a stand-in that says yes.
        let prompter = SSHApprovalInProcessTests.Prompter(answers: [.yes, .yes, .yes])
        fixture.context.sshPrompter = prompter
        try GenerateSSHKey(title: "deploy key", hosts: ["Example.ORG"], confirm: .each).run(in: fixture.context)
        let line = fixture.streams.output.trimmingCharacters(in: .newlines)
        let identities = fixture.service.sshIdentities(for: SSHAgentConnection(peer: nil))
        #expect(identities.count == 1)
        let blob = try #require(identities.first).keyBlob
        #expect(
            SSHWire.authorizedKeysLine(ed25519PublicKey: Array(blob.suffix(32)), comment: "deploy key") == line
        )
        #expect(identities.first?.comment == "deploy key")

        // The item: an SSH key with its fields, no service, its secret the seed in hex.
        let vault = try Vault.open(at: fixture.context.vaultPath, password: try secure("master"))
        let item = try #require(vault.contents.credentials.first { $0.kind == .sshKey })
        #expect(item.services.isEmpty)
        #expect(SSHKeyItem.hosts(of: item) == ["example.org"])
        #expect(SSHKeyItem.confirmPolicy(of: item) == .each)
        #expect(item.field(named: SSHKeyItem.publicKeyField)?.text == line)
        #expect(vault.withSecret(item.secret) { $0.count } == 64)
        // Its private key is never handed out by get (any form of the password) or shown by show --reveal.
        for field in [CredentialField.password, .both, .json] {
            #expect(throws: VaultError.self, "\(field)") { _ = try field.render(item, from: vault) }
        }
        #expect(try CredentialField.username.render(item, from: vault).count >= 1)
        let revealed = try CredentialView(kind: .details, reveal: true).render(item, from: vault, lastUsed: nil)
        let seed = vault.withSecret(item.secret) { Array($0) }
        #expect(revealed.withUnsafeBytes { !$0.elementsEqual(seed) && $0.firstRange(of: seed) == nil })
        // --reveal does not show it, so show does not say it would (issue 38): where it is written out instead.
        let shown = revealed.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        #expect(!shown.contains("--reveal shows it") && shown.contains("ssh export --private"), "\(shown)")

        let data = Array("sign me".utf8)
        let signed = try #require(
            fixture.service.sshSign(keyBlob: blob, data: data, flags: 0, for: SSHAgentConnection(peer: nil)))
        #expect(
            try data.withUnsafeBytes {
                try Ed25519.verify(Array(signed.suffix(64)), of: $0, publicKey: Array(blob.suffix(32)))
            })
        // Another key's blob: refused.
        #expect(
            fixture.service.sshSign(
                keyBlob: SSHWire.ed25519KeyBlob(Self.rfcPublicKey), data: data, flags: 0,
                for: SSHAgentConnection(peer: nil)) == nil)

        #expect(prompter.questions.count == 1, "the unknown key was refused unasked")
        // A signature is a use: show's "last used" is no longer "never" (issue 38).
        #expect(fixture.context.usageHistory.read().lastUsed(item.id) != nil, "the signature counted as a use")

        _ = try fixture.client.request(.lock)
        #expect(
            fixture.service.sshIdentities(for: SSHAgentConnection(peer: nil)).map(\.keyBlob) == [blob],
            "listed while locked")
        #expect(fixture.service.sshSign(keyBlob: blob, data: data, flags: 0, for: SSHAgentConnection(peer: nil)) == nil)
    }

    @Test("ssh list and ssh export work whatever a key is bound to: public keys are no secret")
    func publicWhateverTheBindings() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        try GenerateSSHKey(title: "free", hosts: [], confirm: .never).run(in: fixture.context)
        try GenerateSSHKey(title: "git only", hosts: [], confirm: .never).run(in: fixture.context)
        let lines = fixture.streams.output
        let bound = try #require(
            try VaultAccess.open(fixture.context).identities().identities.first { $0.title == "git only" })
        var edits = CredentialChange.Edits()
        edits.allowPrograms = ["git"]
        try EditCredential(id: bound.id.uuidString, edits: edits, generate: false).run(in: fixture.context)
        // Asked from a shell, which the key is not given to.
        fixture.context.processChain = { _ in
            ProcessChain(members: [
                .init(id: 7, name: "pwtui", executable: nil, commandLine: ["pwtui"]),
                .init(id: 6, name: "bash", executable: "/usr/bin/bash", commandLine: ["bash"]),
            ])
        }
        let listed = try RecordedStreams()
        fixture.context.streams = listed.streams
        try ListSSHKeys(format: .table).run(in: fixture.context)
        #expect(listed.output == lines)
        let exported = try RecordedStreams()
        fixture.context.streams = exported.streams
        try ExportSSHKey(id: bound.id.uuidString).run(in: fixture.context)
        #expect(lines.hasSuffix(exported.output) && exported.output.contains("git only"))
        // The private key stays bound.
        let query = CredentialQuery(id: bound.id.uuidString)
        #expect(throws: AgentRefusal.self) {
            _ = try fixture.client.get(query, field: .password, vault: fixture.context.vaultPath)
        }
    }

    @Test("ssh list and ssh export print the public key; export refuses a login; generate needs a title and a host")
    func commands() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        try GenerateSSHKey(title: "one", hosts: [], confirm: .session).run(in: fixture.context)
        let line = fixture.streams.output
        let listed = try RecordedStreams()
        fixture.context.streams = listed.streams
        try ListSSHKeys(format: .table).run(in: fixture.context)
        #expect(listed.output == line)
        let json = try RecordedStreams()
        fixture.context.streams = json.streams
        try ListSSHKeys(format: .json).run(in: fixture.context)
        let objects = try #require(
            JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(objects.count == 1)
        #expect(objects.first?["publicKey"] as? String == line.trimmingCharacters(in: .newlines))
        #expect(objects.first?["confirm"] as? String == "session")
        let id = try #require(objects.first?["id"] as? String)
        let exported = try RecordedStreams()
        fixture.context.streams = exported.streams
        try ExportSSHKey(id: id).run(in: fixture.context)
        #expect(exported.output == line)

        let login = try #require(
            try VaultAccess.open(fixture.context).identities().identities.first { $0.kind == .login })
        #expect(throws: CommandFailure.self) {
            try ExportSSHKey(id: login.id.uuidString).run(in: fixture.context)
        }
        #expect(throws: CommandFailure.self) {
            try GenerateSSHKey(title: "  ", hosts: [], confirm: .session).run(in: fixture.context)
        }
        #expect(throws: VaultError.self) {
            try GenerateSSHKey(title: "x", hosts: ["https://example.org/"], confirm: .session).run(in: fixture.context)
        }
    }

    /// An agent as one of an older version answers: every identity without its kind.
    final class KindlessAgent: AgentHandler {
        let service: AgentService
        init(_ service: AgentService) { self.service = service }
        func handle(
            _ request: AgentRequest, payload: inout SecureBytes, peer: PeerProcess?, limit: AgentWorkLimit
        ) -> AgentAnswer {
            var answer = service.handle(request, payload: &payload, peer: peer, limit: limit)
            if case .identity(let identity) = answer.reply {
                answer.reply = .identity(
                    IdentityStore.Identity(
                        id: identity.id, title: identity.title, username: identity.username,
                        services: identity.services, rank: identity.rank))
            }
            return answer
        }
        func idle() { service.idle() }
        func stop(within time: Duration) { service.stop(within: time) }
    }

    @Test("an agent of an older version that saves the key as a login: generate says so and prints no key")
    func olderAgent() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        let server = AgentServer(socketPath: "", handler: KindlessAgent(fixture.service))
        fixture.context.agentClient = AgentClient(connect: { server.connectInProcess() })
        let failure = try #require(
            throws: CommandFailure.self,
            performing: {
                try GenerateSSHKey(title: "k", hosts: [], confirm: .session).run(in: fixture.context)
            })
        #expect(failure.message.contains("older version"))
        #expect(fixture.streams.output.isEmpty)
    }

    @Test(
        "generate is one change and one save: the item is an SSH key in the first saved file; an addition's own edits carry no secret"
    )
    func oneSave() throws {
        let fixture = try CommandFixture()
        let before = try fixture.vault().version
        try fixture.run(typing: CommandFixture.unlock) {
            try GenerateSSHKey(title: "one save", hosts: ["example.org"], confirm: .never).run(in: $0)
        }
        let vault = try fixture.vault()
        #expect(vault.version == VaultVersion(generation: before.generation, changes: before.changes + 1))
        #expect(vault.contents.credentials.first { $0.title == "one save" }?.kind == .sshKey)

        var withSecret = CredentialChange.Edits()
        withSecret.replacesSecret = true
        let refused = #expect(throws: VaultError.self) {
            _ = try CredentialChange.add(services: [], username: "", title: "x", notes: "", rank: 0, then: withSecret)
                .apply(to: vault, secret: try secure("s"), suffixes: NoPublicSuffixList())
        }
        #expect("\(String(describing: refused))".contains("no secret"))
        #expect(!vault.contents.credentials.contains { $0.title == "x" }, "refused before anything was added")
    }
}
