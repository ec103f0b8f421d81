// Keys offered by host, in one process (issue 27): the `session-bind@openssh.com` message, the
// host key's signature checked for each host key type, a connection's binding rules, the
// known_hosts reader (names, patterns, negation, ports, hashes), the order keys are offered in,
// and the agent's service choosing by the host a connection is bound to.

import Foundation
import Platform
import PwtuiTestSupport
@testable import SSHKeys
@testable import Commands
import Testing
@testable import VaultAgent
import VaultCrypto
import VaultModel

@Suite("ssh keys offered by host, in process")
struct SSHHostBindingInProcessTests {
    /// A host key of `type`, its blob, and the signature blob of `data` by it.
    static func hostKey(_ type: SSHKeyType) throws -> (blob: [UInt8], sign: ([UInt8]) throws -> [UInt8]) {
        let key = try type.newPrivateKey(bits: type == .rsa ? 2048 : nil)
        let blob = try SSHPrivateKey.publicKeyBlob(key)
        return (
            blob,
            { data in
                // RSA host keys sign with rsa-sha2-512 here (flag 4), as sshd does when ssh offers it.
                try #require(try SSHPrivateKey.signatureBlob(key, data: data, flags: 4))
            }
        )
    }

    static func bindMessage(hostKey: [UInt8], sessionID: [UInt8], signature: [UInt8], forwarding: Bool) -> [UInt8] {
        SSHAgentProtocol.message(
            .extension,
            SSHWire.string(Array(SSHAgentProtocol.sessionBindExtension.utf8))
                + SSHWire.string(hostKey)
                + SSHWire.string(sessionID) + SSHWire.string(signature) + [forwarding ? 1 : 0])
    }

    @Test(
        "a host key's signature of the session verifies for Ed25519, RSA (SHA-2 only) and ECDSA P-256; not of other data"
    )
    func hostKeySignatures() throws {
        let session = Array("session identifier".utf8)
        for type in SSHKeyType.allCases {
            let (blob, sign) = try Self.hostKey(type)
            let key = try SSHHostKey(blob: blob)
            let signature = try sign(session)
            #expect(key.verifies(signature, of: session), "\(type)")
            #expect(!key.verifies(signature, of: session + [0]), "\(type)")
            var flipped = signature
            flipped[flipped.count - 1] ^= 1
            #expect(!key.verifies(flipped, of: session), "\(type)")
            #expect(!key.verifies(Array(signature.dropLast()), of: session), "\(type): cut short")
        }
        // An RSA signature relabelled as SHA-1 `ssh-rsa` is not taken, even were it one.
        let (blob, sign) = try Self.hostKey(.rsa)
        let raw = try SSHWireReader.reading(try sign(session), what: "a signature", failure: { SSHWireTestFailure($0) })
        {
            (reader) throws(SSHWireTestFailure) -> [UInt8] in
            _ = try reader.string()
            return Array(try reader.string())
        }
        let relabelled = SSHWire.string(Array("ssh-rsa".utf8)) + SSHWire.string(raw)
        #expect(!(try SSHHostKey(blob: blob)).verifies(relabelled, of: session))
        // Types pwtui does not check are refused, not taken on trust.
        let dss = SSHWire.string(Array("ssh-dss".utf8)) + SSHWire.string([1, 2, 3])
        #expect(throws: SSHAgentProtocol.Malformed.self) { _ = try SSHHostKey(blob: dss) }
        #expect(throws: SSHAgentProtocol.Malformed.self) { _ = try SSHHostKey(blob: Array(blob.dropLast())) }
    }

    @Test(
        "a connection: one binding not for forwarding ends it; forwarding hops then the destination; the same again is fine"
    )
    func bindingRules() {
        let a = SSHAgentConnection.Binding(hostKey: [1], sessionID: [1], isForwarding: true)
        let b = SSHAgentConnection.Binding(hostKey: [2], sessionID: [2], isForwarding: false)
        let c = SSHAgentConnection.Binding(hostKey: [3], sessionID: [3], isForwarding: false)
        var connection = SSHAgentConnection(peer: nil)
        #expect(connection.destination == nil)
        let first = connection.bind(a)
        let second = connection.bind(b)
        let again = connection.bind(b)
        let third = connection.bind(c)
        #expect(first && second)
        #expect(again, "the same binding again")
        #expect(!third, "bound for good")
        #expect(connection.bindings == [a, b] && connection.destination == b)
        var hops = SSHAgentConnection(peer: nil)
        for index in 0 ..< SSHAgentConnection.maximumBindings {
            let taken = hops.bind(.init(hostKey: [UInt8(index)], sessionID: [UInt8(index)], isForwarding: true))
            #expect(taken)
        }
        let beyond = hops.bind(c)
        #expect(!beyond, "at most \(SSHAgentConnection.maximumBindings)")
    }

    @Test("a bound connection signs logins for its own session and host key only; other data is no login")
    func loginsForTheBoundSession() {
        let session: [UInt8] = [7, 7, 7]
        let hostKey: [UInt8] = [9, 9]
        var connection = SSHAgentConnection(peer: nil)
        func login(session: [UInt8], method: String = "publickey", hostKey named: [UInt8]? = nil) -> [UInt8] {
            var data = SSHWire.string(session) + [50]
            data += SSHWire.string(Array("git".utf8)) + SSHWire.string(Array("ssh-connection".utf8))
            data += SSHWire.string(Array(method.utf8)) + [1]
            data += SSHWire.string(Array("ssh-ed25519".utf8)) + SSHWire.string([1, 2])
            if let named { data += SSHWire.string(named) }
            return data
        }
        #expect(connection.allowsSigning(login(session: [1])), "unbound: anything")
        _ = connection.bind(.init(hostKey: hostKey, sessionID: session, isForwarding: false))
        #expect(connection.allowsSigning(login(session: session)))
        #expect(!connection.allowsSigning(login(session: [1])), "another session's login")
        let hostBound = "publickey-hostbound-v00@openssh.com"
        #expect(connection.allowsSigning(login(session: session, method: hostBound, hostKey: hostKey)))
        #expect(!connection.allowsSigning(login(session: session, method: hostBound, hostKey: [8])))
        #expect(!connection.allowsSigning(login(session: session, method: hostBound)), "host key missing")
        #expect(connection.allowsSigning(Array("SSHSIG".utf8) + [0, 0, 0, 1, 0]), "ssh-keygen -Y sign: no login")
    }

    @Test(
        "over the socket: a bind that verifies succeeds and reaches the handler; a forged one, another extension or a cut-short one fails"
    )
    func bindOverTheSocket() throws {
        let keys = try SSHAgentInProcessTests.StubKeys()
        let (_, connection) = try SSHAgentInProcessTests.connect(keys)
        defer { connection.close() }
        let (blob, sign) = try Self.hostKey(.ed25519)
        let session = Array("the session".utf8)
        let failure: [UInt8] = [0, 0, 0, 1, 5]

        let forged = Self.bindMessage(hostKey: blob, sessionID: session, signature: try sign([1]), forwarding: false)
        try SSHAgentInProcessTests.send(forged, to: connection)
        #expect(try SSHAgentInProcessTests.reply(connection) == failure)
        let other = SSHAgentProtocol.message(.extension, SSHWire.string(Array("query".utf8)))
        try SSHAgentInProcessTests.send(other, to: connection)
        #expect(try SSHAgentInProcessTests.reply(connection) == failure)
        let whole = Self.bindMessage(hostKey: blob, sessionID: session, signature: try sign(session), forwarding: false)
        // The same message with its flag cut off, its length fixed up: it parses no further.
        let cut = SSHAgentProtocol.message(.extension, Array(whole.dropFirst(5).dropLast()))
        try SSHAgentInProcessTests.send(cut, to: connection)
        #expect(try SSHAgentInProcessTests.reply(connection) == failure)
        try SSHAgentInProcessTests.send(SSHAgentProtocol.message(.requestIdentities), to: connection)
        _ = try SSHAgentInProcessTests.reply(connection)
        #expect(keys.lastConnection?.destination == nil, "nothing bound so far")

        try SSHAgentInProcessTests.send(whole, to: connection)
        #expect(try SSHAgentInProcessTests.reply(connection) == [0, 0, 0, 1, 6])
        try SSHAgentInProcessTests.send(SSHAgentProtocol.message(.requestIdentities), to: connection)
        _ = try SSHAgentInProcessTests.reply(connection)
        #expect(keys.lastConnection?.destination?.hostKey == blob)
        #expect(keys.lastConnection?.destination?.sessionID == session)
        // A login for another session is refused before the handler is asked.
        let signedBefore = keys.signatures
        let login = SSHWire.string([1, 2, 3]) + [50] + SSHWire.string([])
        let request = SSHAgentProtocol.message(
            .signRequest,
            SSHWire.string(SSHWire.ed25519KeyBlob(SSHAgentInProcessTests.rfcPublicKey))
                + SSHWire.string(login) + [0, 0, 0, 0])
        try SSHAgentInProcessTests.send(request, to: connection)
        #expect(try SSHAgentInProcessTests.reply(connection) == failure)
        #expect(keys.signatures == signedBefore)
    }

    static let hostBlob = SSHWire.ed25519KeyBlob([UInt8](repeating: 3, count: 32))
    static var hostLine: String { Data(hostBlob).base64EncodedString() }

    @Test(
        "known_hosts: names, lists, [host]:port, wildcards, negation, hashed names; markers, comments and bad lines passed over"
    )
    func knownHosts() {
        let other = Data(SSHWire.ed25519KeyBlob([UInt8](repeating: 4, count: 32))).base64EncodedString()
        let text = """
            # a comment
            github.com,140.82.112.3 ssh-ed25519 \(Self.hostLine) comment\r
            [build.example]:2222 ssh-ed25519 \(Self.hostLine)
            *.corp.example,!secret.corp.example ssh-ed25519 \(Self.hostLine)
            @revoked revoked.example ssh-ed25519 \(Self.hostLine)
            |1|AQIDBAUGBwgJCgsMDQ4PEBESExQ=|Z4mPZ8qvP1dZ1YMBZ1PR3n6PBLo= ssh-ed25519 \(other)
            broken.example ssh-ed25519 !!!notbase64
            short.example
            """
        let known = KnownHosts.parse(text)
        #expect(known.contains(Self.hostBlob))
        #expect(known.names(of: Self.hostBlob) == ["github.com", "140.82.112.3", "build.example"])
        #expect(known.knows("GitHub.com", as: Self.hostBlob))
        #expect(known.knows("build.example", as: Self.hostBlob), "[host]:port counts as the host")
        #expect(known.knows("[build.example]:2222", as: Self.hostBlob))
        #expect(known.knows("ci.corp.example", as: Self.hostBlob))
        #expect(!known.knows("secret.corp.example", as: Self.hostBlob), "negated")
        #expect(known.knows("*.corp.example", as: Self.hostBlob), "a key bound to the same pattern")
        #expect(!known.knows("revoked.example", as: Self.hostBlob), "@revoked names no host")
        #expect(!known.knows("gitlab.com", as: Self.hostBlob))
        // The hashed line: HMAC-SHA-1 of "github.com" under the salt 01…14, computed by Python's hmac.
        let otherBlob = SSHWire.ed25519KeyBlob([UInt8](repeating: 4, count: 32))
        #expect(known.knows("github.com", as: otherBlob))
        #expect(!known.knows("gitlab.com", as: otherBlob))
        #expect(known.names(of: otherBlob).isEmpty, "a hashed name cannot be read")
        #expect(!known.knows("github.com", as: [1, 2, 3]))
    }

    @Test("wildcards agree with a plain recursive reference on 3,000 generated cases")
    func wildcardProperty() {
        func reference(_ pattern: Substring, _ text: Substring) -> Bool {
            guard let first = pattern.first else { return text.isEmpty }
            if first == "*" {
                return reference(pattern.dropFirst(), text) || (!text.isEmpty && reference(pattern, text.dropFirst()))
            }
            guard let head = text.first, first == "?" || first == head else { return false }
            return reference(pattern.dropFirst(), text.dropFirst())
        }
        var generator = SystemRandomNumberGenerator()
        let patternAlphabet: [Character] = ["a", "b", ".", "*", "?"]
        let textAlphabet: [Character] = ["a", "b", "."]
        for _ in 0 ..< 3000 {
            let pattern = String(
                (0 ..< Int.random(in: 0 ... 6, using: &generator)).map { _ in
                    patternAlphabet.randomElement(using: &generator) ?? "a"
                })
            let text = String(
                (0 ..< Int.random(in: 0 ... 7, using: &generator)).map { _ in
                    textAlphabet.randomElement(using: &generator) ?? "a"
                })
            #expect(
                KnownHosts.wildcard(pattern, matches: text) == reference(pattern[...], text[...]), "\(pattern) \(text)")
        }
    }

    @Test(
        "the order offered: unbound connection all; a known host its keys then the unbound; an unknown host the unbound then the bound"
    )
    func offeredOrder() {
        let keys: [(String, [String])] = [("a", []), ("gh", ["github.com"]), ("b", []), ("lab", ["gitlab.com"])]
        let known = KnownHosts.parse("github.com ssh-ed25519 \(Self.hostLine)\n")
        func order(_ connection: SSHAgentConnection) -> [String] {
            SSHDestination.offered(keys, hosts: \.1, to: SSHDestination(connection, knownHosts: known)).map(\.0)
        }
        #expect(order(SSHAgentConnection(peer: nil)) == ["a", "gh", "b", "lab"])
        let toGitHub = SSHAgentConnection(
            peer: nil, bindings: [.init(hostKey: Self.hostBlob, sessionID: [1], isForwarding: false)])
        #expect(order(toGitHub) == ["gh", "a", "b"])
        let toUnknown = SSHAgentConnection(
            peer: nil, bindings: [.init(hostKey: [5], sessionID: [1], isForwarding: false)])
        #expect(order(toUnknown) == ["a", "b", "gh", "lab"])
        let destination = SSHDestination(toGitHub, knownHosts: known)
        #expect(destination?.mayUse(hosts: []) == true)
        #expect(destination?.mayUse(hosts: ["gitlab.com"]) == false)
        #expect(destination?.displayName() == "github.com")
        let forwarded = SSHAgentConnection(
            peer: nil,
            bindings: [
                .init(hostKey: [5], sessionID: [1], isForwarding: true),
                .init(hostKey: Self.hostBlob, sessionID: [2], isForwarding: false),
            ])
        #expect(
            SSHDestination(forwarded, knownHosts: known)?.displayName()
                == "github.com, forwarded through an unknown host (\(SSHFingerprint.of([5])))")
    }

    @Test(
        "the agent's service: bound to a host in the user's known_hosts, its key first and another host's key neither listed nor signing"
    )
    func service() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        for (title, hosts) in [("any", [String]()), ("lab", ["gitlab.com"]), ("hub", ["github.com"])] {
            try GenerateSSHKey(title: title, hosts: hosts, confirm: .never).run(in: fixture.context)
        }
        try FileManager.default.createDirectory(atPath: fixture.root + "/.ssh", withIntermediateDirectories: true)
        try "github.com ssh-ed25519 \(Self.hostLine)\n".write(
            toFile: fixture.root + "/.ssh/known_hosts", atomically: true, encoding: .utf8)
        let unbound = SSHAgentConnection(peer: nil)
        #expect(fixture.service.sshIdentities(for: unbound).map(\.comment) == ["any", "lab", "hub"])
        let bound = SSHAgentConnection(
            peer: nil, bindings: [.init(hostKey: Self.hostBlob, sessionID: [1], isForwarding: false)])
        let offered = fixture.service.sshIdentities(for: bound)
        #expect(offered.map(\.comment) == ["hub", "any"])
        let lab = try #require(fixture.service.sshIdentities(for: unbound).first { $0.comment == "lab" })
        let data = Array("SSHSIG, no login".utf8)
        #expect(fixture.service.sshSign(keyBlob: lab.keyBlob, data: data, flags: 0, for: bound) == nil)
        #expect(fixture.service.sshSign(keyBlob: lab.keyBlob, data: data, flags: 0, for: unbound) != nil)
        #expect(fixture.service.sshSign(keyBlob: offered[0].keyBlob, data: data, flags: 0, for: bound) != nil)
    }
}

/// A wire reader's failure in a test.
struct SSHWireTestFailure: Error {
    let description: String
    init(_ description: String) { self.description = description }
}
