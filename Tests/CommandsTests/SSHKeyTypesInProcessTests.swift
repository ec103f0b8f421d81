// RSA and ECDSA P-256 SSH keys in one process: OpenSSH's wire encodings (mpints, the key and
// signature blobs), signatures made through the COpenSSL shim checked by OpenSSL's own
// verification, the agent's service choosing the RSA algorithm from the request's flags, and
// `ssh generate`'s --type and --bits.

import Foundation
import Platform
import PwtuiTestSupport
@testable import SSHKeys
@testable import Commands
import Testing
import VaultAgent
import VaultCrypto
import VaultModel

@Suite("ssh key types (RSA, ECDSA), in process")
struct SSHKeyTypesInProcessTests {
    /// The strings of a blob, front to back (an SSH blob is strings and mpints, both length-prefixed).
    static func strings(_ blob: [UInt8]) throws -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var rest = blob[...]
        while !rest.isEmpty {
            let length = try #require(rest.count >= 4 ? SSHWire.length(rest.prefix(4)) : nil)
            rest = rest.dropFirst(4)
            try #require(rest.count >= length, "a string runs past the blob")
            parts.append(Array(rest.prefix(length)))
            rest = rest.dropFirst(length)
        }
        return parts
    }

    @Test("mpint: leading zeros dropped, a zero put in front of a set high bit, zero is empty")
    func mpint() {
        #expect(SSHWire.mpint([]) == [0, 0, 0, 0])
        #expect(SSHWire.mpint([0, 0]) == [0, 0, 0, 0])
        #expect(SSHWire.mpint([0, 0x7F, 1]) == [0, 0, 0, 2, 0x7F, 1])
        #expect(SSHWire.mpint([0x80]) == [0, 0, 0, 2, 0, 0x80])
        // RFC 4251 § 5's example: 0x80 → 00 00 00 02 00 80; 0x09a378f9b2e332a7 unchanged.
        #expect(
            SSHWire.mpint(hex("09a378f9b2e332a7")) == [0, 0, 0, 8] + hex("09a378f9b2e332a7"))
    }

    @Test("the sign request's flags: 2 is rsa-sha2-256, 4 rsa-sha2-512, both 256 (as OpenSSH), none SHA-1 refused")
    func rsaFlags() {
        #expect(SSHWire.rsaAlgorithm(flags: 2) == "rsa-sha2-256")
        #expect(SSHWire.rsaAlgorithm(flags: 4) == "rsa-sha2-512")
        #expect(SSHWire.rsaAlgorithm(flags: 6) == "rsa-sha2-256")
        #expect(SSHWire.rsaAlgorithm(flags: 0) == nil)
        #expect(SSHWire.rsaAlgorithm(flags: 1) == nil)
    }

    @Test("an ECDSA P-256 key: 65-byte uncompressed point, a signature OpenSSL verifies, another message's not")
    func ecdsaKey() throws {
        let key = try OpenSSLKey.newECDSAP256()
        guard case .ecdsaP256(let point) = try OpenSSLKey.publicKey(der: key) else {
            Issue.record("not read back as P-256")
            return
        }
        #expect(point.count == 65 && point.first == 4)
        let message = Array("sign me".utf8)
        let signature = try message.withUnsafeBytes { try OpenSSLKey.sign($0, der: key, digest: .sha256) }
        #expect(signature.count == 64)
        #expect(message.withUnsafeBytes { OpenSSLKey.verify(signature, of: $0, der: key, digest: .sha256) })
        #expect(
            !Array("sign m3".utf8).withUnsafeBytes { OpenSSLKey.verify(signature, of: $0, der: key, digest: .sha256) })
        var flipped = signature
        flipped[40] ^= 1
        #expect(!message.withUnsafeBytes { OpenSSLKey.verify(flipped, of: $0, der: key, digest: .sha256) })

        let blob = SSHWire.ecdsaP256KeyBlob(point: point)
        #expect(try Self.strings(blob) == [Array("ecdsa-sha2-nistp256".utf8), Array("nistp256".utf8), point])
    }

    @Test("an RSA key: e 65537, a modulus of the size asked, PKCS#1 signatures OpenSSL verifies per hash")
    func rsaKey() throws {
        let key = try OpenSSLKey.newRSA(bits: 2048)
        guard case .rsa(let exponent, let modulus) = try OpenSSLKey.publicKey(der: key) else {
            Issue.record("not read back as RSA")
            return
        }
        #expect(exponent == [1, 0, 1])
        #expect(modulus.count == 256 && modulus[0] & 0x80 != 0)
        let message = Array("sign me".utf8)
        for digest in [OpenSSLKey.Digest.sha256, .sha512] {
            let signature = try message.withUnsafeBytes { try OpenSSLKey.sign($0, der: key, digest: digest) }
            #expect(signature.count == 256)
            #expect(message.withUnsafeBytes { OpenSSLKey.verify(signature, of: $0, der: key, digest: digest) })
            let other: OpenSSLKey.Digest = digest == .sha256 ? .sha512 : .sha256
            #expect(!message.withUnsafeBytes { OpenSSLKey.verify(signature, of: $0, der: key, digest: other) })
        }
        // ssh-rsa: string "ssh-rsa", mpint e, mpint n (a zero in front of the modulus's set high bit).
        let blob = SSHWire.rsaKeyBlob(exponent: exponent, modulus: modulus)
        #expect(try Self.strings(blob) == [Array("ssh-rsa".utf8), [1, 0, 1], [0] + modulus])

        #expect(throws: VaultCryptoError.self) { _ = try OpenSSLKey.newRSA(bits: 1024) }
        #expect(throws: VaultCryptoError.self) { _ = try OpenSSLKey.newRSA(bits: 8193) }
        // A seed or noise is not a key OpenSSL reads.
        #expect(throws: VaultCryptoError.self) { _ = try OpenSSLKey.publicKey(der: try SecureBytes.random(count: 200)) }
    }

    @Test("the agent serves generated RSA and ECDSA keys; the flags choose the RSA algorithm; SHA-1 is refused")
    func service() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        try GenerateSSHKey(title: "rsa key", hosts: [], confirm: .never, type: .rsa, bits: 2048).run(
            in: fixture.context)
        try GenerateSSHKey(title: "ec key", hosts: [], confirm: .never, type: .ecdsa).run(in: fixture.context)
        let lines = fixture.streams.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let identities = fixture.service.sshIdentities(for: SSHAgentConnection(peer: nil))
        #expect(identities.map(\.comment) == ["rsa key", "ec key"])
        #expect(
            identities.map { SSHWire.authorizedKeysLine(keyBlob: $0.keyBlob, comment: $0.comment) } == lines)
        #expect(lines.first?.hasPrefix("ssh-rsa AAAAB3NzaC1yc2E") == true)
        #expect(lines.last?.hasPrefix("ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTY") == true)

        let vault = try Vault.open(at: fixture.context.vaultPath, password: try secure("master"))
        let items = vault.contents.credentials.filter { $0.kind == .sshKey }
        let rsa = try SSHKeyItem.privateKey(of: try #require(items.first { $0.title == "rsa key" }), in: vault)
        let ec = try SSHKeyItem.privateKey(of: try #require(items.first { $0.title == "ec key" }), in: vault)
        let data = Array("session id and request".utf8)

        for (flags, algorithm, digest) in [
            (UInt32(2), "rsa-sha2-256", OpenSSLKey.Digest.sha256), (4, "rsa-sha2-512", .sha512),
            (6, "rsa-sha2-256", .sha256),
        ] {
            let blob = try #require(
                fixture.service.sshSign(
                    keyBlob: identities[0].keyBlob, data: data, flags: flags, for: SSHAgentConnection(peer: nil)))
            let parts = try Self.strings(blob)
            #expect(parts.count == 2)
            #expect(parts.first == Array(algorithm.utf8), "flags \(flags)")
            #expect(parts.last?.count == 256)
            #expect(data.withUnsafeBytes { OpenSSLKey.verify(parts[1], of: $0, der: rsa, digest: digest) })
        }
        #expect(
            fixture.service.sshSign(
                keyBlob: identities[0].keyBlob, data: data, flags: 0, for: SSHAgentConnection(peer: nil)) == nil)

        // ECDSA: string "ecdsa-sha2-nistp256", string (mpint r, mpint s); flags mean nothing to it.
        for flags in [UInt32(0), 4] {
            let blob = try #require(
                fixture.service.sshSign(
                    keyBlob: identities[1].keyBlob, data: data, flags: flags, for: SSHAgentConnection(peer: nil)))
            let parts = try Self.strings(blob)
            #expect(parts.first == Array("ecdsa-sha2-nistp256".utf8))
            let pair = try Self.strings(parts[1])
            #expect(pair.count == 2)
            let padded = pair.map { number in
                [UInt8](repeating: 0, count: max(0, 32 - number.count)) + number.suffix(32)
            }
            #expect(pair.allSatisfy { $0.count <= 33 && ($0.first ?? 0) & 0x80 == 0 })
            #expect(data.withUnsafeBytes { OpenSSLKey.verify(padded[0] + padded[1], of: $0, der: ec, digest: .sha256) })
        }
    }

    @Test("ssh generate --type rsa without --bits makes a 3072-bit key")
    func defaultBits() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        try GenerateSSHKey(title: "default", hosts: [], confirm: .session, type: .rsa).run(in: fixture.context)
        let line = fixture.streams.output.split(separator: " ")
        let encoded = try #require(line.dropFirst().first)
        let blob = try #require(Data(base64Encoded: String(encoded)))
        let parts = try Self.strings(Array(blob))
        #expect(parts.count == 3 && parts[0] == Array("ssh-rsa".utf8) && parts[1] == [1, 0, 1])
        // The modulus's high bit is set, so its mpint has a zero in front: 1 + 384 bytes.
        #expect(parts.last?.count == 385 && parts.last?.first == 0)
    }

    @Test("ssh generate: --bits out of range or for a type without sizes is a usage error (64)")
    func bits() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        for (type, bits) in [(SSHKeyType.rsa, 1024), (.rsa, 16384), (.rsa, 2047), (.ecdsa, 2048), (.ed25519, 256)] {
            do {
                try GenerateSSHKey(title: "k", hosts: [], confirm: .session, type: type, bits: bits)
                    .run(in: fixture.context)
                Issue.record("\(type) \(bits) made a key")
            } catch {
                #expect(ExitStatus(error) == .usage, "\(type) \(bits): \(error)")
                #expect("\(error)".contains(type == .rsa ? "2048 to 8192" : "RSA keys only"), "\(error)")
            }
        }
        let vault = try Vault.open(at: fixture.context.vaultPath, password: try secure("master"))
        #expect(vault.contents.credentials.allSatisfy { $0.kind != .sshKey })
    }
}
