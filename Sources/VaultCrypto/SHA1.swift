/// SHA-1 (FIPS 180-4) and HMAC-SHA-1 (RFC 2104), for one-time codes only.
///
/// SHA-1 is broken for collisions, which HMAC does not rely on, and RFC 6238's default, which
/// nearly every site's authenticator secret still uses. libsodium does not have it, so it is
/// here, small and tested against FIPS 180 and RFC 2202's vectors. Every intermediate that
/// holds key material lives in the caller's buffers or on the stack and is zeroed after use.
enum SHA1 {
    static let blockByteCount = 64

    /// HMAC-SHA-1 of `message` under `key`, written into `out` (20 bytes).
    static func hmac(
        _ message: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer
    ) {
        var block = [UInt8](repeating: 0, count: blockByteCount)
        defer { zero(&block) }
        if key.count > blockByteCount {
            var digest = State()
            digest.absorb(key)
            digest.finish(into: &block)
        } else {
            for (index, byte) in key.enumerated() { block[index] = byte }
        }
        var inner = State()
        var pad = block.map { $0 ^ 0x36 }
        pad.withUnsafeBytes { inner.absorb($0) }
        inner.absorb(message)
        var innerDigest = [UInt8](repeating: 0, count: 20)
        defer { zero(&innerDigest) }
        inner.finish(into: &innerDigest)
        var outer = State()
        for index in pad.indices { pad[index] = block[index] ^ 0x5C }
        pad.withUnsafeBytes { outer.absorb($0) }
        zero(&pad)
        innerDigest.withUnsafeBytes { outer.absorb($0) }
        var result = [UInt8](repeating: 0, count: 20)
        outer.finish(into: &result)
        for index in 0 ..< 20 { out[index] = result[index] }
        zero(&result)
    }

    /// SHA-1 of `message` (for the tests' FIPS vectors).
    static func hash(_ message: UnsafeRawBufferPointer) -> [UInt8] {
        var state = State()
        state.absorb(message)
        var digest = [UInt8](repeating: 0, count: 20)
        state.finish(into: &digest)
        return digest
    }

    private static func zero(_ bytes: inout [UInt8]) {
        for index in bytes.indices { bytes[index] = 0 }
    }

    struct State {
        private var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (
            0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0
        )
        private var pending = [UInt8]()
        private var length: UInt64 = 0

        mutating func absorb(_ bytes: UnsafeRawBufferPointer) {
            length &+= UInt64(bytes.count)
            for byte in bytes {
                pending.append(byte)
                if pending.count == blockByteCount {
                    compress(pending)
                    pending.removeAll(keepingCapacity: true)
                }
            }
        }

        mutating func finish(into digest: inout [UInt8]) {
            let bits = length &* 8
            pending.append(0x80)
            while pending.count % blockByteCount != 56 { pending.append(0) }
            for shift in stride(from: 56, through: 0, by: -8) {
                pending.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
            }
            for start in stride(from: 0, to: pending.count, by: blockByteCount) {
                compress(Array(pending[start ..< start + blockByteCount]))
            }
            for index in pending.indices { pending[index] = 0 }
            let words = [h.0, h.1, h.2, h.3, h.4]
            for (index, word) in words.enumerated() {
                for byte in 0 ..< 4 {
                    digest[index * 4 + byte] = UInt8(truncatingIfNeeded: word >> UInt32(24 - byte * 8))
                }
            }
            h = (0, 0, 0, 0, 0)
        }

        private mutating func compress(_ block: [UInt8]) {
            var w = [UInt32](repeating: 0, count: 80)
            for t in 0 ..< 16 {
                w[t] =
                    UInt32(block[t * 4]) << 24 | UInt32(block[t * 4 + 1]) << 16 | UInt32(block[t * 4 + 2]) << 8
                    | UInt32(block[t * 4 + 3])
            }
            for t in 16 ..< 80 {
                let x = w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]
                w[t] = x << 1 | x >> 31
            }
            var (a, b, c, d, e) = h
            for t in 0 ..< 80 {
                let (f, k): (UInt32, UInt32)
                switch t {
                case 0 ..< 20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20 ..< 40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40 ..< 60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[t]
                e = d
                d = c
                c = b << 30 | b >> 2
                b = a
                a = temp
            }
            h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
            for index in w.indices { w[index] = 0 }
        }
    }
}
