internal import CSodium

/// libsodium must be initialised once before any other call; `sodium_init` is itself idempotent
/// and thread-safe, and a lazy static runs it exactly once per process.
enum Sodium {
    private static let initResult: Int32 = sodium_init()

    static func ready() throws(VaultCryptoError) {
        // 0: initialised now, 1: already initialised; -1: failure.
        guard initResult >= 0 else { throw .libraryUnavailable }
    }
}
