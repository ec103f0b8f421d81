/// Blowfish (Bruce Schneier, "Description of a New Variable-Length Key, 64-Bit Block Cipher",
/// Fast Software Encryption 1993), here only as the engine of OpenBSD's bcrypt and bcrypt-pbkdf
/// (`BcryptPBKDF`), which OpenSSH uses to turn a passphrase into the key of a private key file.
///
/// The cipher: a 64-bit block is split into two 32-bit halves, L and R. Sixteen rounds each xor
/// L with the next subkey of the P-array and then R with F(L), and swap the halves; after them the
/// last swap is undone and the two remaining subkeys (P17, P18) are xored in. F(x) looks the four
/// bytes of x up in the four S-boxes and combines them: ((S1[a] + S2[b]) ^ S3[c]) + S4[d], with
/// additions modulo 2^32. Its whole state is those 18 + 4 × 256 words, 4 KiB.
///
/// The key schedule: the state starts as the digits of pi (`BlowfishPi`, computed by
/// Resources/generate-blowfish-pi.py); the key, repeated cyclically, is xored into the P-array as
/// big-endian words; then an all-zero block is encrypted over and over, each result replacing the
/// next two words of the P-array and then of the S-boxes, 521 encryptions in all. That expensive,
/// key-dependent setup is why bcrypt ("Eksblowfish", Provos and Mazières 1999) chose it: its
/// `expand(data:key:)` is the same schedule with a salt also xored into each block before it is
/// encrypted, and `expand(key:)` is the plain schedule without restarting from pi.
///
/// The state is derived from a passphrase, so it lives in protected memory (`SecureBytes`, zeroed
/// when the value ends) and is touched through a raw pointer: the arrays' checks made a debug
/// build's bcrypt-pbkdf several times slower.
public struct Blowfish: ~Copyable {
    static let rounds = 16
    static let pWords = rounds + 2
    static let sWords = 4 * 256
    static let stateBytes = (pWords + sWords) * 4

    private var state: SecureBytes

    /// The initial state, pi's digits, before any key.
    public init() throws(VaultCryptoError) {
        state = try SecureBytes(zeros: Self.stateBytes)
        state.withUnsafeMutableBytes { bytes in
            let words = bytes.bindMemory(to: UInt32.self)
            for index in 0 ..< Self.pWords { words[index] = BlowfishPi.p[index] }
            for index in 0 ..< Self.sWords { words[Self.pWords + index] = BlowfishPi.s[index] }
        }
    }

    /// Blowfish keyed with `key` (1 to 72 bytes are meaningful) by the standard key schedule.
    public init(key: UnsafeRawBufferPointer) throws(VaultCryptoError) {
        guard !key.isEmpty else { throw .invalidInput("a Blowfish key is at least one byte") }
        try self.init()
        expand(key: key)
    }

    /// The standard key schedule from the current state (bcrypt's `expand0state`).
    public mutating func expand(key: UnsafeRawBufferPointer) {
        withWords { words in
            var position = 0
            for index in 0 ..< Self.pWords { words[index] ^= Self.word(key, &position) }
            var left: UInt32 = 0
            var right: UInt32 = 0
            for index in stride(from: 0, to: Self.pWords + Self.sWords, by: 2) {
                Self.encrypt(words, &left, &right)
                words[index] = left
                words[index + 1] = right
            }
        }
    }

    /// Eksblowfish's salted schedule (`expandstate`): as `expand(key:)`, with the next 64 bits of
    /// `data` (cyclically) xored into the block before each encryption.
    public mutating func expand(data: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer) {
        withWords { words in
            var position = 0
            for index in 0 ..< Self.pWords { words[index] ^= Self.word(key, &position) }
            position = 0
            var left: UInt32 = 0
            var right: UInt32 = 0
            for index in stride(from: 0, to: Self.pWords + Self.sWords, by: 2) {
                left ^= Self.word(data, &position)
                right ^= Self.word(data, &position)
                Self.encrypt(words, &left, &right)
                words[index] = left
                words[index + 1] = right
            }
        }
    }

    /// Encrypts one block given as its two halves.
    public mutating func encrypt(_ left: inout UInt32, _ right: inout UInt32) {
        withWords { Self.encrypt($0, &left, &right) }
    }

    /// Encrypts `halves` (pairs of words: L, R, L, R, …) in place, block by block (ECB).
    public mutating func encrypt(halves: UnsafeMutableBufferPointer<UInt32>) {
        withWords { words in
            for index in stride(from: 0, to: halves.count - 1, by: 2) {
                Self.encrypt(words, &halves[index], &halves[index + 1])
            }
        }
    }

    /// Encrypts one 8-byte block, big-endian halves as in Schneier's test vectors.
    public mutating func encrypt(block: inout [UInt8]) throws(VaultCryptoError) {
        guard block.count == 8 else { throw .invalidInput("a Blowfish block is 8 bytes") }
        var left = block[0 ..< 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        var right = block[4 ..< 8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        encrypt(&left, &right)
        for index in 0 ..< 4 {
            block[index] = UInt8(truncatingIfNeeded: left >> (24 - 8 * index))
            block[4 + index] = UInt8(truncatingIfNeeded: right >> (24 - 8 * index))
        }
    }

    private mutating func withWords<Result>(_ body: (UnsafeMutablePointer<UInt32>) -> Result) -> Result {
        state.withUnsafeMutableBytes { bytes in
            let words = bytes.bindMemory(to: UInt32.self)
            // Never nil: the state is never empty.
            guard let base = words.baseAddress else { preconditionFailure("Blowfish state without storage") }
            return body(base)
        }
    }

    /// The next 32-bit big-endian word of `bytes`, read cyclically from `position` (which moves on).
    /// An empty buffer reads as zeros.
    @inline(__always)
    static func word(_ bytes: UnsafeRawBufferPointer, _ position: inout Int) -> UInt32 {
        guard !bytes.isEmpty else { return 0 }
        var value: UInt32 = 0
        for _ in 0 ..< 4 {
            if position >= bytes.count { position = 0 }
            value = value << 8 | UInt32(bytes[position])
            position += 1
        }
        return value
    }

    @inline(__always)
    private static func f(_ words: UnsafeMutablePointer<UInt32>, _ x: UInt32) -> UInt32 {
        let s = words + pWords
        let a = s[Int(x >> 24)]
        let b = s[256 + Int((x >> 16) & 0xFF)]
        let c = s[512 + Int((x >> 8) & 0xFF)]
        let d = s[768 + Int(x & 0xFF)]
        return ((a &+ b) ^ c) &+ d
    }

    @inline(__always)
    private static func encrypt(_ words: UnsafeMutablePointer<UInt32>, _ left: inout UInt32, _ right: inout UInt32) {
        var l = left ^ words[0]
        var r = right
        var index = 1
        while index <= rounds {
            r ^= f(words, l) ^ words[index]
            l ^= f(words, r) ^ words[index + 1]
            index += 2
        }
        left = r ^ words[rounds + 1]
        right = l
    }
}
