/// RFC 6238's test key and the codes Python's own hmac computes for it now: the oracle the
/// one-time-code tests compare pwtui with, in process and through the binary alike.
package enum ReferenceOneTimeCodes {
    /// RFC 6238's SHA-1 seed, "12345678901234567890", in base32, as an authenticator's URI.
    package static let uri =
        "otpauth://totp/GitHub:alice?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=GitHub&digits=8"

    /// The codes for that key now and 30 s either side (a step may turn between pwtui's clock
    /// and Python's).
    package static func now(digits: Int = 8, algorithm: String = "sha1") throws -> [String] {
        let python = try ProgramOutput(
            "python3",
            [
                "-c",
                """
                import hmac, hashlib, struct, time
                key = b"12345678901234567890"
                for step in (-1, 0, 1):
                    counter = int(time.time()) // 30 + step
                    mac = hmac.new(key, struct.pack(">Q", counter), hashlib.\(algorithm)).digest()
                    offset = mac[-1] & 15
                    print("%0\(digits)d" % ((struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7fffffff) % 10 ** \(digits)))
                """,
            ])
        return python.text.split(separator: "\n").map(String.init)
    }
}
