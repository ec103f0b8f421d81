// ssh import's reading of key files and ssh export --private's writing of them, in one process:
// the writer's file read back to the same key for each type; every truncation, every byte
// flipped and seeded random files end in a typed `SSHKeyFileError`, never a trap or a wrong key;
// files that are not private keys named; a key already in the vault refused with its id; the
// private export refused to a terminal. With OpenSSH's own programs: SSHImportProgramTests.

import Foundation
import Platform
import PwtuiTestSupport
@testable import SSHKeys
@testable import Commands
import Testing
import VaultAgent
import VaultCrypto
import VaultModel

@Suite struct SSHKeyFileInProcessTests {
    static func newKey(_ type: SSHKeyType) throws -> SecureBytes {
        try type.newPrivateKey(bits: type == .rsa ? 2048 : nil)
    }

    /// Reads `text` as a key file; the passphrase closure fails the test if it is called.
    static func read(_ text: [UInt8]) throws -> ImportedSSHKey {
        try secure(text).withUnsafeBytes { bytes in
            try SSHKeyFile.read(bytes) {
                Issue.record("a passphrase was asked for an unencrypted file")
                return try secure("unused")
            }
        }
    }

    static func armoured(_ body: [UInt8]) -> [UInt8] {
        let base64 = Data(body).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return Array("-----BEGIN OPENSSH PRIVATE KEY-----\n\(base64)\n-----END OPENSSH PRIVATE KEY-----\n".utf8)
    }

    static func written(_ key: borrowing SecureBytes, comment: String = "a comment") throws -> [UInt8] {
        try OpenSSHKeyWriter.file(for: key, comment: comment).withUnsafeBytes { Array($0) }
    }

    static func body(of file: [UInt8]) throws -> [UInt8] {
        let lines = String(decoding: file, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("-----") }
        return Array(try #require(Data(base64Encoded: lines.joined())))
    }

    @Test(
        "the writer's file reads back to the same key and type; its lines are 70 characters, as ssh-keygen's",
        arguments: SSHKeyType.allCases)
    func roundTrip(_ type: SSHKeyType) throws {
        let key = try Self.newKey(type)
        let file = try Self.written(key)
        let lines = String(decoding: file, as: UTF8.self).split(separator: "\n")
        #expect(
            lines.first == "-----BEGIN OPENSSH PRIVATE KEY-----" && lines.last == "-----END OPENSSH PRIVATE KEY-----")
        #expect(lines.dropFirst().dropLast().dropLast().allSatisfy { $0.count == 70 })
        let read = try Self.read(file)
        #expect(read.type == type)
        let same = read.key.isEqual(to: key)
        #expect(same)
    }

    @Test("every truncation of a key file's body, and of its text, is a typed error", arguments: SSHKeyType.allCases)
    func truncations(_ type: SSHKeyType) throws {
        let key = try Self.newKey(type)
        let file = try Self.written(key)
        let body = try Self.body(of: file)
        for length in 0 ..< body.count {
            #expect(throws: SSHKeyFileError.self, "body cut at \(length)") {
                _ = try Self.read(Self.armoured(Array(body.prefix(length))))
            }
        }
        for length in stride(from: 0, to: file.count - 40, by: 7) {
            #expect(throws: SSHKeyFileError.self, "text cut at \(length)") {
                _ = try Self.read(Array(file.prefix(length)))
            }
        }
    }

    @Test(
        "each byte of the body flipped (RSA's: every 7th, OpenSSL's check of each costs 100 ms): the same key (a flip in the comment), or a typed error",
        arguments: SSHKeyType.allCases)
    func flips(_ type: SSHKeyType) throws {
        let key = try Self.newKey(type)
        let body = try Self.body(of: try Self.written(key))
        let step = type == .rsa ? 7 : 1
        let indices = Array(stride(from: 0, to: body.count, by: step))
        var refused = 0
        for index in indices {
            var changed = body
            changed[index] ^= 0x41
            do {
                let read = try Self.read(Self.armoured(changed))
                let same = read.key.isEqual(to: key)
                #expect(same, "flip at \(index) read as another key")
            } catch is SSHKeyFileError {
                refused += 1
            }
        }
        // Only the comment ("a comment", 9 bytes) and the check numbers flipped alike may pass.
        #expect(refused >= indices.count - 9)
    }

    @Test("seeded random bodies and files are typed errors")
    func randomInputs() throws {
        var generator = SeededGenerator(seed: 27)
        for round in 0 ..< 400 {
            let length = Int(generator.next() % 600)
            var bytes = (0 ..< length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if round % 2 == 0 { bytes = OpenSSHKeyFile.magic + bytes }
            #expect(throws: SSHKeyFileError.self, "round \(round)") { _ = try Self.read(Self.armoured(bytes)) }
            #expect(throws: SSHKeyFileError.self, "round \(round)") { _ = try Self.read(bytes + [0x20]) }
        }
    }

    @Test("what is not a private key is named: empty, public keys, PuTTY, DSA, an unknown PEM block, text")
    func namedRefusals() throws {
        let cases: [(String, SSHKeyFileError)] = [
            ("", .empty),
            (" \n\t\n", .empty),
            ("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIpfrAYh188fqpWNqc99pAwwlMdJNBEVJebgpxZrqFOq me\n", .publicKey),
            ("ecdsa-sha2-nistp384 AAAA me\n", .publicKey),
            ("---- BEGIN SSH2 PUBLIC KEY ----\nAAAA\n---- END SSH2 PUBLIC KEY ----\n", .publicKey),
            ("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n", .publicKey),
            ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\n", .putty),
            ("-----BEGIN DSA PRIVATE KEY-----\nAAAA\n-----END DSA PRIVATE KEY-----\n", .unsupportedType("a DSA key")),
            (
                "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
                .unknownFormat("a PEM file of CERTIFICATE")
            ),
            ("hello\n", .unknownFormat("the file does not start with a -----BEGIN line")),
            ("-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n", .malformed("its END line is missing")),
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(text.debugDescription)") { _ = try Self.read(Array(text.utf8)) }
        }
        #expect(SSHKeyFileError.wrongPassphrase("x").exitStatus == .wrongPassword)
        #expect(SSHKeyFileError.needsPassphrase.exitStatus == .interactionRequired)
        #expect(SSHKeyFileError.publicKey.exitStatus == .corrupt)
    }

    @Test(
        "OpenSSH headers naming what pwtui does not keep or read: security keys, P-384, certificates, several keys, other ciphers and derivations"
    )
    func refusedHeaders() throws {
        func u32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
        func string(_ bytes: [UInt8]) -> [UInt8] { u32(bytes.count) + bytes }
        func string(_ text: String) -> [UInt8] { string(Array(text.utf8)) }
        func header(cipher: String = "none", kdf: String = "none", keys: Int = 1, type: String) -> [UInt8] {
            OpenSSHKeyFile.magic + string(cipher) + string(kdf) + string([UInt8]()) + u32(keys)
                + string(string(type) + string([UInt8](repeating: 7, count: 32)))
                + string([UInt8](repeating: 0, count: 16))
        }
        let cases: [([UInt8], SSHKeyFileError)] = [
            (
                header(type: "sk-ssh-ed25519@openssh.com"),
                .unsupportedType(
                    "a security key's handle (sk-ssh-ed25519@openssh.com), whose private key is on the token")
            ),
            (header(type: "ecdsa-sha2-nistp384"), .unsupportedType("an ECDSA key on P-384 (ecdsa-sha2-nistp384)")),
            (header(type: "ecdsa-sha2-nistp521"), .unsupportedType("an ECDSA key on P-521 (ecdsa-sha2-nistp521)")),
            (header(type: "ssh-dss"), .unsupportedType("a DSA key (ssh-dss)")),
            (
                header(type: "ssh-ed25519-cert-v01@openssh.com"),
                .unsupportedType("a certificate (ssh-ed25519-cert-v01@openssh.com)")
            ),
            (header(keys: 2, type: "ssh-ed25519"), .unknownFormat("a file with several keys in it")),
            (
                header(cipher: "3des-cbc", kdf: "bcrypt", type: "ssh-ed25519"),
                .unsupportedEncryption("the cipher 3des-cbc")
            ),
            (
                header(cipher: "aes256-ctr", kdf: "scrypt", type: "ssh-ed25519"),
                .unsupportedEncryption("the key derivation scrypt")
            ),
            (
                header(cipher: "aes256-ctr", kdf: "none", type: "ssh-ed25519"),
                .malformed("its cipher (aes256-ctr) and key derivation (none) disagree")
            ),
        ]
        for (body, expected) in cases {
            #expect(throws: expected) { _ = try Self.read(Self.armoured(body)) }
        }
    }

    @Test("a PEM RSA key whose numbers do not make one key (found by the fuzzer) is refused, not taken to sign wrongly")
    func inconsistentPEMKey() throws {
        // OpenSSL parses PKCS#1 without checking the numbers against each other; this file (a key
        // with one changed byte) was imported, and its export could not be read back.
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/SSHKeyFile")
        for name in ["crash-pem-rsa-inconsistent-numbers", "crash-inconsistent-2"] {
            let file = try [UInt8](Data(contentsOf: corpus.appendingPathComponent(name)))
            #expect(String(decoding: file.prefix(31), as: UTF8.self) == "-----BEGIN RSA PRIVATE KEY-----")
            do {
                _ = try Self.read(file)
                Issue.record("\(name) was taken")
            } catch let error as SSHKeyFileError {
                #expect(error == .malformed("the numbers of the RSA PRIVATE KEY in it do not make one key"), "\(error)")
                #expect(error.exitStatus == .corrupt)
            }
        }
    }

    @Test("a key already in the vault is refused, naming its id; nothing saved")
    func duplicate() throws {
        let fixture = try CommandFixture()
        try fixture.run(passwordOnDescriptor: true) { context in
            try GenerateSSHKey(title: "first", hosts: [], confirm: .never).run(in: context)
        }
        let vault = try fixture.vault()
        let item = try #require(vault.contents.credentials.first { $0.kind == .sshKey })
        let path = fixture.root + "/id_copy"
        try Data(try Self.written(try SSHKeyItem.privateKey(of: item, in: vault))).write(to: URL(fileURLWithPath: path))
        let (failure, streams) = try fixture.failure(passwordOnDescriptor: true) { context in
            try ImportSSHKey(file: path, title: "again", hosts: [], confirm: .never).run(in: context)
        }
        let id = item.id.uuidString.lowercased().prefix(8)
        #expect(
            failure?.code == .usage && failure?.message.contains(String(id)) == true, "\(String(describing: failure))")
        #expect(streams.output.isEmpty)
        #expect(try fixture.vault().contents.credentials.filter { $0.kind == .sshKey }.count == 1)
    }

    @Test("export --private: refused to a terminal; to stdout the key in OpenSSH's format, the title as comment")
    func privateExport() throws {
        let fixture = try CommandFixture()
        try fixture.run(passwordOnDescriptor: true) { context in
            try GenerateSSHKey(title: "laptop", hosts: [], confirm: .never, type: .ecdsa).run(in: context)
        }
        let vault = try fixture.vault()
        let item = try #require(vault.contents.credentials.first { $0.kind == .sshKey })
        let id = String(item.id.uuidString.prefix(8))
        let (failure, toTerminal) = try fixture.failure(answerIsTerminal: true, passwordOnDescriptor: true) { context in
            try ExportSSHKey(id: id, includePrivate: true).run(in: context)
        }
        #expect(failure?.code == .usage && failure?.message.contains("terminal") == true)
        #expect(toTerminal.output.isEmpty)

        let exported = try fixture.run(passwordOnDescriptor: true) { context in
            try ExportSSHKey(id: id, includePrivate: true).run(in: context)
        }
        let read = try Self.read(Array(exported.output.utf8))
        let stored = try SSHKeyItem.privateKey(of: item, in: vault)
        let same = read.key.isEqual(to: stored)
        #expect(same)
        #expect(try Self.body(of: Array(exported.output.utf8)).count > 0)
        #expect(String(decoding: try Self.body(of: Array(exported.output.utf8)), as: UTF8.self).contains("laptop"))
    }
}
