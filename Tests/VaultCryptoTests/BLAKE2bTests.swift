import PwtuiTestSupport
import Testing
import VaultCrypto

/// Expected digests from an independent implementation (CPython's hashlib.blake2b,
/// digest_size=32).
@Suite struct BLAKE2bTests {
    @Test func unkeyedDigests() throws {
        #expect(hex(try BLAKE2b.hash([])) == "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8")
        #expect(
            hex(try BLAKE2b.hash(Array("abc".utf8)))
                == "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319")
    }

    /// The digest of two parts (a journal's chain: the previous hash, then a frame) is the
    /// digest of the two joined, wherever they are cut.
    @Test func twoPartsHashAsOne() throws {
        let bytes = Array((0 ..< 300).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        for cut in [0, 1, 32, 128, 129, 300] {
            let parts = try bytes[..<cut].withUnsafeBytes { first in
                try bytes[cut...].withUnsafeBytes { second in try BLAKE2b.hash(first, second) }
            }
            #expect(parts == (try BLAKE2b.hash(bytes)))
        }
        #expect(
            hex(
                try [UInt8]("a".utf8).withUnsafeBytes { a in
                    try [UInt8]("bc".utf8).withUnsafeBytes { try BLAKE2b.hash(a, $0) }
                })
                == "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319")
    }

    @Test func keyedDigest() throws {
        let key = try secure(Array(0 ..< 32))
        #expect(
            hex(try BLAKE2b.mac(Array("pwtui".utf8), key: key))
                == "cd6ff83dfbb63f1b6cb85811c3d3cedd408ba54b24968b80232eae7fcfdff4f9")
    }

    @Test func digestComparison() throws {
        let a = try BLAKE2b.hash(Array("a".utf8))
        var b = a
        #expect(BLAKE2b.digestsMatch(a, b))
        b[31] ^= 1
        #expect(!BLAKE2b.digestsMatch(a, b))
        #expect(!BLAKE2b.digestsMatch(a, Array(a.prefix(16))))
    }

    @Test func keyOfWrongSizeIsRefused() throws {
        #expect(throws: VaultCryptoError.self) { _ = try BLAKE2b.mac([1], key: try secure([1, 2, 3])) }
    }
}
