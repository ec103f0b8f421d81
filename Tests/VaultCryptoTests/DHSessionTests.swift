import Foundation
import Platform
import PwtuiTestSupport
import Testing

@testable import VaultCrypto

/// The Secret Service's `dh-ietf1024-sha256-aes128-cbc-pkcs7` session: thousands of sessions
/// both ways with secrets of every length 0…300, a cross-check against libsecret's algorithm
/// written again in Python (`cryptography`), and the refusals.
@Suite struct DHSessionTests {
    /// RFC 2409, 6.2: the 1024-bit MODP group's prime, typed from the RFC (OpenSSL's
    /// `BN_get_rfc2409_prime_1024` is what the shim uses; Python below uses this one).
    static let primeHex =
        "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
        + "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
        + "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF"

    @Test("3,000 sessions, both sides ours: every secret of every length 0…300 comes back exactly, both ways")
    func thousandsOfSessions() throws {
        var random = SeededGenerator(seed: 0x35_40)
        var lengths: [Int: Int] = [:]
        var shortPublicKeys = 0
        for round in 0 ..< 3000 {
            let client = try DHSession.KeyPair()
            let service = try DHSession.KeyPair()
            if client.publicKey.count < 128 || service.publicKey.count < 128 { shortPublicKeys += 1 }
            let servicePublic = service.publicKey
            let serviceSession = try service.session(withPeer: client.publicKey)
            let clientSession = try client.session(withPeer: servicePublic)
            // Every multiple of 16 up to 288 often, the rest at random.
            let length =
                round % 4 == 0
                ? 16 * Int.random(in: 0 ... 18, using: &random) : Int.random(in: 0 ... 300, using: &random)
            lengths[length, default: 0] += 1
            let secret = (0 ..< length).map { _ in UInt8.random(in: 0 ... 255, using: &random) }
            let sent = try secret.withUnsafeBytes { try clientSession.encrypt($0) }
            #expect(sent.parameters.count == 16)
            #expect(sent.value.count == (length / 16 + 1) * 16, "PKCS#7 always pads, a whole block on a full one")
            let received = try serviceSession.decrypt(parameters: sent.parameters, value: sent.value)
            #expect(contents(received) == secret, "round \(round), \(length) bytes, client to service")
            let answered = try secret.withUnsafeBytes { try serviceSession.encrypt($0) }
            let back = try clientSession.decrypt(parameters: answered.parameters, value: answered.value)
            #expect(contents(back) == secret, "round \(round), \(length) bytes, service to client")
            if contents(received) != secret || contents(back) != secret { return }
        }
        #expect(lengths.keys.contains(0) && lengths.keys.contains(288) && lengths.keys.contains(300))
        // One public key in 256 has a leading zero byte and is sent shorter: both sides read it.
        #expect(shortPublicKeys > 0, "no public key shorter than 128 bytes in 6,000")
    }

    @Test("a fresh IV each time: the same secret twice is two different values")
    func freshIVs() throws {
        let client = try DHSession.KeyPair()
        let service = try DHSession.KeyPair()
        let session = try client.session(withPeer: service.publicKey)
        let secret = Array("hunter2".utf8)
        let first = try secret.withUnsafeBytes { try session.encrypt($0) }
        let second = try secret.withUnsafeBytes { try session.encrypt($0) }
        #expect(first.parameters != second.parameters && first.value != second.value)
    }

    @Test(
        "refused: a peer key of 0, 1, p-1, p or nothing; an IV not of 16 bytes; a value not whole blocks; bad padding")
    func refusals() throws {
        let prime = hex(Self.primeHex)
        var primeMinusOne = prime
        primeMinusOne[primeMinusOne.count - 1] -= 1
        for peer in [[], [0], [1], primeMinusOne, prime] {
            #expect(throws: VaultCryptoError.self, "\(peer.count) bytes") {
                _ = try DHSession.KeyPair().session(withPeer: peer)
            }
        }
        // p-2 is the largest key accepted.
        var primeMinusTwo = prime
        primeMinusTwo[primeMinusTwo.count - 1] -= 2
        _ = try DHSession.KeyPair().session(withPeer: primeMinusTwo)

        let client = try DHSession.KeyPair()
        let service = try DHSession.KeyPair()
        let servicePublic = service.publicKey
        let serviceSession = try service.session(withPeer: client.publicKey)
        let session = try client.session(withPeer: servicePublic)
        let sent = try Array("short".utf8).withUnsafeBytes { try session.encrypt($0) }
        #expect(throws: VaultCryptoError.self) {
            _ = try serviceSession.decrypt(parameters: Array(sent.parameters.prefix(15)), value: sent.value)
        }
        #expect(throws: VaultCryptoError.self) {
            _ = try serviceSession.decrypt(parameters: sent.parameters, value: Array(sent.value.prefix(15)))
        }
        #expect(throws: VaultCryptoError.self) {
            _ = try serviceSession.decrypt(parameters: sent.parameters, value: [])
        }
        // The IV's last byte flipped high flips the one block's last plaintext byte, the padding
        // count: 0x0B becomes 0x8B, more than a block.
        var iv = sent.parameters
        iv[15] ^= 0x80
        #expect(throws: VaultCryptoError.authenticationFailed) {
            _ = try serviceSession.decrypt(parameters: iv, value: sent.value)
        }
        // The IV's byte 14 flipped: the count is right but the byte before it is not.
        iv = sent.parameters
        iv[14] ^= 0x01
        #expect(throws: VaultCryptoError.authenticationFailed) {
            _ = try serviceSession.decrypt(parameters: iv, value: sent.value)
        }
        // The untouched value still opens.
        #expect(
            contents(try serviceSession.decrypt(parameters: sent.parameters, value: sent.value)) == Array("short".utf8))
    }

    /// libsecret's algorithm written again, apart from the shim: Python's own integers for the
    /// group, `cryptography`'s HKDF and AES-CBC with its PKCS7 padder. `keys FILE`: for each
    /// line's exponent of ours, an exponent of its own — for the first line one whose shared
    /// secret starts with a zero byte, the case a missing left-pad breaks — and its public key.
    /// `check FILE`: each line's secret of ours decrypted, and a reply encrypted.
    static let python = """
        import os, sys
        from cryptography.hazmat.primitives import hashes, padding
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
        from cryptography.hazmat.primitives.kdf.hkdf import HKDF
        p = int(sys.argv[1], 16)
        def minimal(n):
            return n.to_bytes((n.bit_length() + 7) // 8, "big")
        def key(peer, x):
            shared = pow(peer, x, p).to_bytes(128, "big")
            return HKDF(algorithm=hashes.SHA256(), length=16, salt=None, info=b"").derive(shared)
        lines = [line.split() for line in open(sys.argv[3])]
        if sys.argv[2] == "keys":
            for index, (ours,) in enumerate(lines):
                a = int(ours, 16)
                while True:
                    b = int.from_bytes(os.urandom(128), "big")
                    if index > 0 or pow(2, a * b, p) < (1 << 1016):
                        break
                print(minimal(b).hex(), minimal(pow(2, b, p)).hex())
            sys.exit(0)
        for theirs, our_public, iv, value, reply in lines:
            k = key(int(our_public, 16), int(theirs, 16))
            decryptor = Cipher(algorithms.AES(k), modes.CBC(bytes.fromhex(iv))).decryptor()
            unpadder = padding.PKCS7(128).unpadder()
            plain = unpadder.update(decryptor.update(bytes.fromhex(value)) + decryptor.finalize()) + unpadder.finalize()
            iv2 = os.urandom(16)
            padder = padding.PKCS7(128).padder()
            encryptor = Cipher(algorithms.AES(k), modes.CBC(iv2)).encryptor()
            sealed = encryptor.update(padder.update(bytes.fromhex(reply)) + padder.finalize()) + encryptor.finalize()
            print(plain.hex() or "-", iv2.hex(), sealed.hex())
        """

    /// The tests' Python environment, with cryptography from PyPI (`make python-tests`).
    static let python3 = TestPython.interpreter

    static var pythonHasCryptography: Bool {
        (try? ProgramOutput(Self.python3, ["-c", "import cryptography"]).ending) == .exited(0)
    }

    @Test(
        "against libsecret's algorithm in Python: 200 sessions, a shared secret with a leading zero among them, both ways"
    )
    func pythonCrossCheck() throws {
        try #require(TestPython.isReady, "\(TestPython.missing)")
        try #require(Self.pythonHasCryptography, "\(Self.python3) has no cryptography package")
        var random = SeededGenerator(seed: 40)
        let directory = TemporaryDirectory("dh")
        let file = try directory.freshPath("sessions")
        let exponents = (0 ..< 200).map { _ in (0 ..< 128).map { _ in UInt8.random(in: 0 ... 255, using: &random) } }
        try exponents.map(hex).joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let theirs = try ProgramOutput(Self.python3, ["-c", Self.python, Self.primeHex, "keys", file]).text
            .split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        try #require(theirs.count == exponents.count && theirs.allSatisfy { $0.count == 2 })
        func session(_ index: Int) throws -> DHSession {
            try DHSession.KeyPair(exponent: try SecureBytes(copying: exponents[index]))
                .session(withPeer: hex(theirs[index][1]))
        }
        var lines: [String] = []
        var secrets: [[UInt8]] = []
        var replies: [[UInt8]] = []
        for index in exponents.indices {
            let ourPublic = try DHSession.KeyPair(exponent: try SecureBytes(copying: exponents[index])).publicKey
            // Lengths around the block size, where padding goes wrong, and long ones.
            let length = [0, 1, 15, 16, 17, 31, 32, 33, 255, 300][index % 10]
            secrets.append((0 ..< length).map { _ in UInt8.random(in: 0 ... 255, using: &random) })
            replies.append(secrets[index].reversed() + [UInt8(index % 256)])
            let sent = try secrets[index].withUnsafeBytes { try session(index).encrypt($0) }
            lines.append(
                [theirs[index][0], hex(ourPublic), hex(sent.parameters), hex(sent.value), hex(replies[index])]
                    .joined(separator: " "))
        }
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let answers = try ProgramOutput(Self.python3, ["-c", Self.python, Self.primeHex, "check", file]).text
            .split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        try #require(answers.count == exponents.count)
        for (index, answer) in answers.enumerated() {
            let expected = secrets[index].isEmpty ? "-" : hex(secrets[index])
            #expect(answer.count == 3 && answer[0] == expected, "session \(index): Python decrypted ours")
            guard answer.count == 3 else { continue }
            let back = try session(index).decrypt(parameters: hex(answer[1]), value: hex(answer[2]))
            #expect(contents(back) == replies[index], "session \(index): ours decrypted Python's")
        }
    }
}
