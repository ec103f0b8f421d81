import Foundation
import PwtuiTestSupport
import Testing
@testable import VaultCrypto

/// HOTP and TOTP against their RFCs' own vectors, and the SHA-1 under them against FIPS 180,
/// RFC 2202 and Python's hashlib.
@Suite("One-time codes")
struct OneTimeCodeTests {
    static func text(_ bytes: borrowing SecureBytes) -> String {
        bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    @Test("RFC 4226 Appendix D: counters 0 to 9")
    func hotpVectors() throws {
        let expected = [
            "755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489",
        ]
        let key = Array("12345678901234567890".utf8)
        for (counter, code) in expected.enumerated() {
            let made = try key.withUnsafeBytes {
                Self.text(try OneTimeCode.hotp(key: $0, counter: UInt64(counter), digits: 6, algorithm: .sha1))
            }
            #expect(made == code, "counter \(counter)")
        }
    }

    @Test(
        "RFC 6238 Appendix B: every time, with SHA-1, SHA-256 and SHA-512",
        arguments: [
            (Int64(59), "94287082", "46119246", "90693936"),
            (1_111_111_109, "07081804", "68084774", "25091201"),
            (1_111_111_111, "14050471", "67062674", "99943326"),
            (1_234_567_890, "89005924", "91819424", "93441116"),
            (2_000_000_000, "69279037", "90698825", "38618901"),
            (20_000_000_000, "65353130", "77737706", "47863826"),
        ])
    func totpVectors(time: Int64, sha1: String, sha256: String, sha512: String) throws {
        let seeds: [(HMAC.Algorithm, String, String)] = [
            (.sha1, "12345678901234567890", sha1),
            (.sha256, "12345678901234567890123456789012", sha256),
            (.sha512, "1234567890123456789012345678901234567890123456789012345678901234", sha512),
        ]
        for (algorithm, seed, code) in seeds {
            let made = try Array(seed.utf8).withUnsafeBytes { key in
                let timed = try OneTimeCode.totp(key: key, at: time, period: 30, digits: 8, algorithm: algorithm)
                return (Self.text(timed.code), timed.secondsLeft)
            }
            #expect(made.0 == code, "\(algorithm) at \(time)")
            #expect(made.1 == 30 - Int(time % 30))
        }
    }

    @Test("SHA-1: FIPS 180 examples")
    func sha1Vectors() {
        let cases = [
            ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"), ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
            ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
            (String(repeating: "a", count: 1_000_000), "34aa973cd4c4daa4f61eeb2bdbad27316534016f"),
        ]
        for (message, digest) in cases {
            #expect(hex(Array(message.utf8).withUnsafeBytes { SHA1.hash($0) }) == digest, "\(message.prefix(10))")
        }
    }

    @Test("HMAC-SHA-1: RFC 2202's cases, short and longer-than-a-block keys")
    func hmacSHA1Vectors() throws {
        let cases: [([UInt8], [UInt8], String)] = [
            ([UInt8](repeating: 0x0B, count: 20), Array("Hi There".utf8), "b617318655057264e28bc0b6fb378c8ef146be00"),
            (
                Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
                "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"
            ),
            (
                [UInt8](repeating: 0xAA, count: 20), [UInt8](repeating: 0xDD, count: 50),
                "125d7342b9ac11cd91a39af48aa17b4f63f175d3"
            ),
            (
                [UInt8](repeating: 0xAA, count: 80),
                Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                "aa4ae5e15272d00e95705637ce8a3b55ed402112"
            ),
            (
                [UInt8](repeating: 0xAA, count: 80),
                Array("Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data".utf8),
                "e8e99d0f45237d786d6bbaa7965c7808bbff1a91"
            ),
        ]
        for (key, message, digest) in cases {
            let mac = try key.withUnsafeBytes { k in
                try message.withUnsafeBytes { m in
                    try HMAC.authenticate(m, key: k, using: .sha1).withUnsafeBytes { hex(Array($0)) }
                }
            }
            #expect(mac == digest)
        }
    }

    @Test("SHA-1 and HMAC-SHA-1/256/512 agree with Python's hashlib and hmac on every length around the block edges")
    func agreesWithPython() throws {
        var script = "import hashlib, hmac\n"
        var expected: [String] = []
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 200] {
            let message = (0 ..< length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let key = (0 ..< (length % 70 + 1)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) }
            script += "m = bytes(\(message)); k = bytes(\(key))\n"
            script += "print(hashlib.sha1(m).hexdigest())\n"
            expected.append(hex(message.withUnsafeBytes { SHA1.hash($0) }))
            for (name, algorithm) in [("sha1", HMAC.Algorithm.sha1), ("sha256", .sha256), ("sha512", .sha512)] {
                script += "print(hmac.new(k, m, hashlib.\(name)).hexdigest())\n"
                expected.append(
                    try key.withUnsafeBytes { k in
                        try message.withUnsafeBytes { m in
                            try HMAC.authenticate(m, key: k, using: algorithm).withUnsafeBytes { hex(Array($0)) }
                        }
                    })
            }
        }
        let printed = try ProgramOutput("python3", ["-c", script]).text
        #expect(printed.split(separator: "\n").map(String.init) == expected)
    }
}
