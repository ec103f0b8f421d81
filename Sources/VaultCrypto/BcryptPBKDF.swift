/// bcrypt-pbkdf, OpenBSD's password-based key derivation (Ted Unangst, 2013), as OpenSSH uses it
/// for its private key files (`kdfname` "bcrypt" in PROTOCOL.key: a salt and a number of rounds
/// in `kdfoptions`; the cipher's key and IV are the output).
///
/// It is PBKDF2's shape with a bcrypt core in place of HMAC:
///
/// - The passphrase is hashed once with SHA-512 (`sha2pass`).
/// - The output is made in blocks of 32 bytes. Block `n` (counted from 1) starts from the salt
///   followed by `n` as a big-endian 32-bit number, hashed with SHA-512 (`sha2salt`), and runs the
///   core on (`sha2pass`, `sha2salt`); each of the remaining `rounds - 1` rounds hashes the
///   previous core output with SHA-512 as the next `sha2salt`, runs the core again, and xors its
///   output into the block.
/// - The core ("bcrypt_hash") is Eksblowfish: Blowfish's state from pi, the salted key schedule
///   with `sha2salt` as data and `sha2pass` as key, then 64 times the plain schedule with
///   `sha2salt` and then `sha2pass` as the key; with that state it encrypts the 32 bytes
///   "OxychromaticBlowfishSwatDynamite" (as eight big-endian words) 64 times, and the eight words
///   come out little-endian. The expensive key schedule is what makes a guess cost.
/// - The blocks are not concatenated but interleaved: byte `i` of block `n` goes to
///   `i × stride + (n - 1)` of the output, with `stride` the number of blocks, so that every
///   part of a long key depends on every block's work (an attacker cannot check one block alone).
///
/// ssh-keygen's default is 16 rounds; an AES-256 key file asks for 48 bytes (key and IV), so two
/// blocks: 32 core runs, each 64 × 2 + 1 key schedules of 521 Blowfish encryptions.
///
/// Every intermediate (the hashed passphrase, the salts' hashes, the core's outputs, Blowfish's
/// state) is in protected memory.
public enum BcryptPBKDF {
    /// OpenSSH takes any count; more than this is a file made to stall the reader (ssh-keygen's
    /// default is 16 and 100 already takes seconds).
    public static let maximumRounds = 1 << 16
    static let blockBytes = 32
    private static let magic = Array("OxychromaticBlowfishSwatDynamite".utf8)

    /// `keyLength` bytes (1 to 1024) derived from `passphrase` and `salt` (1 to 1024 bytes) in
    /// `rounds` rounds (at least 1).
    public static func derive(
        passphrase: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer, rounds: Int, keyLength: Int
    ) throws(VaultCryptoError) -> SecureBytes {
        guard (1 ... maximumRounds).contains(rounds) else {
            throw .invalidInput("bcrypt-pbkdf's rounds are 1 to \(maximumRounds), not \(rounds)")
        }
        guard (1 ... 1024).contains(keyLength), (1 ... 1024).contains(salt.count) else {
            throw .invalidInput("bcrypt-pbkdf: a key of 1 to 1024 bytes, from a salt of 1 to 1024 bytes")
        }
        let stride = (keyLength + blockBytes - 1) / blockBytes
        let perBlock = (keyLength + stride - 1) / stride
        var key = try SecureBytes(zeros: keyLength)
        // Scratch: sha2pass 64 | sha2salt 64 | block 32 | core output 32 | salt ‖ count.
        var scratch = try SecureBytes(zeros: 64 + 64 + 32 + 32 + salt.count + 4)
        try scratch.withUnsafeMutableBytes { (all) throws(VaultCryptoError) in
            let sha2pass = UnsafeMutableRawBufferPointer(rebasing: all[0 ..< 64])
            let sha2salt = UnsafeMutableRawBufferPointer(rebasing: all[64 ..< 128])
            let block = UnsafeMutableRawBufferPointer(rebasing: all[128 ..< 160])
            let output = UnsafeMutableRawBufferPointer(rebasing: all[160 ..< 192])
            let countSalt = UnsafeMutableRawBufferPointer(rebasing: all[192...])
            try SHA512.hash(passphrase, into: sha2pass)
            countSalt.copyMemory(from: salt)
            for number in 1 ... stride {
                for index in 0 ..< 4 {
                    countSalt[salt.count + index] = UInt8(truncatingIfNeeded: number >> (24 - 8 * index))
                }
                try SHA512.hash(UnsafeRawBufferPointer(countSalt), into: sha2salt)
                try core(UnsafeRawBufferPointer(sha2pass), UnsafeRawBufferPointer(sha2salt), into: output)
                block.copyMemory(from: UnsafeRawBufferPointer(output))
                for _ in 1 ..< rounds {
                    try SHA512.hash(UnsafeRawBufferPointer(output), into: sha2salt)
                    try core(UnsafeRawBufferPointer(sha2pass), UnsafeRawBufferPointer(sha2salt), into: output)
                    for index in 0 ..< blockBytes { block[index] ^= output[index] }
                }
                key.withUnsafeMutableBytes { key in
                    for index in 0 ..< perBlock {
                        let destination = index * stride + (number - 1)
                        guard destination < keyLength else { break }
                        key[destination] = block[index]
                    }
                }
            }
        }
        return key
    }

    /// bcrypt's core over the 64-byte `sha2pass` and `sha2salt`: 32 bytes into `output`.
    private static func core(
        _ sha2pass: UnsafeRawBufferPointer, _ sha2salt: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(VaultCryptoError) {
        var cipher = try Blowfish()
        cipher.expand(data: sha2salt, key: sha2pass)
        for _ in 0 ..< 64 {
            cipher.expand(key: sha2salt)
            cipher.expand(key: sha2pass)
        }
        var words = try SecureBytes(zeros: blockBytes)
        words.withUnsafeMutableBytes { bytes in
            let halves = bytes.bindMemory(to: UInt32.self)
            magic.withUnsafeBytes { magic in
                var position = 0
                for index in 0 ..< 8 { halves[index] = Blowfish.word(magic, &position) }
            }
            for _ in 0 ..< 64 { cipher.encrypt(halves: halves) }
            for index in 0 ..< 8 {
                for byte in 0 ..< 4 {
                    output[4 * index + byte] = UInt8(truncatingIfNeeded: halves[index] >> (8 * byte))
                }
            }
        }
    }
}
