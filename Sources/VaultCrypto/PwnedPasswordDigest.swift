/// The key Have I Been Pwned's Pwned Passwords are listed under: the SHA-1 of the password's
/// UTF-8 bytes (20 bytes; the files write it in 40 hexadecimal digits). SHA-1 is the list's
/// choice, not a protection: an unsalted digest of a weak password gives the password back, so
/// the digest goes where the caller keeps it (`pwtui audit`: protected memory), never into an
/// array of its own.
public enum PwnedPasswordDigest {
    public static let byteCount = 20

    /// SHA-1 of `password`, written into `out` (20 bytes).
    public static func digest(of password: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) {
        var state = SHA1.State()
        state.absorb(password)
        var digest = [UInt8](repeating: 0, count: byteCount)
        state.finish(into: &digest)
        for index in 0 ..< byteCount { out[index] = digest[index] }
        for index in digest.indices { digest[index] = 0 }
    }
}
