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

/// libsodium reads nothing from a zero-length input and writes nothing to a zero-length output,
/// but its parameters are non-optional pointers, while an empty Swift buffer has no address.
/// These give such a buffer a valid one, so no call site force-unwraps.
private nonisolated(unsafe) let emptyBufferStandIn = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)

extension UnsafeRawBufferPointer {
    var bytes: UnsafePointer<UInt8> {
        baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) } ?? UnsafePointer(emptyBufferStandIn)
    }
}

extension UnsafeMutableRawBufferPointer {
    var mutableBytes: UnsafeMutablePointer<UInt8> {
        baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) } ?? emptyBufferStandIn
    }
}

extension UnsafeBufferPointer<UInt8> {
    var bytes: UnsafePointer<UInt8> { baseAddress ?? UnsafePointer(emptyBufferStandIn) }
}

extension UnsafeMutableBufferPointer<UInt8> {
    var mutableBytes: UnsafeMutablePointer<UInt8> { baseAddress ?? emptyBufferStandIn }
}
