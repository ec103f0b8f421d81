internal import CSodium
import Platform

/// Where `SecureBytes` gets and gives back its protected memory. A `sodium_malloc` is an mmap,
/// three mprotects, an madvise and an mlock, and its `sodium_free` as many again and a TLB
/// flush: a secret read through the Secret Service made five of each, a tenth of the read's time.
/// So allocations of up to 4 kB come in a few size classes, and a freed one is
/// zeroed and kept (still locked, still between its guard pages) for the next of its class: at
/// most `perClass` of each, the rest freed as before. Nothing else changes: a kept allocation
/// holds no secret (zeroed on its way in), and a taken one is zero as a fresh one is.
enum ProtectedAllocations {
    /// The size classes, smallest first; a request takes the smallest that holds it.
    static let classes = [64, 256, 1024, 4096]
    static let perClass = 8

    private static let lock = Lock()
    private nonisolated(unsafe) static var kept: [Int: [UnsafeMutableRawPointer]] = [:]

    /// `bytes` of zeroed protected memory (more when a size class rounds it up: how many is
    /// the second value), or nil when sodium has none to give.
    static func allocate(atLeast bytes: Int) -> (UnsafeMutableRawPointer, capacity: Int)? {
        guard let size = classes.first(where: { $0 >= bytes }) else {
            guard let pointer = sodium_malloc(bytes) else { return nil }
            pointer.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
            return (pointer, bytes)
        }
        if let pointer = lock.withLock({ kept[size]?.popLast() }) { return (pointer, size) }
        guard let pointer = sodium_malloc(size) else { return nil }
        pointer.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        return (pointer, size)
    }

    /// `pointer`'s `capacity` bytes zeroed, and kept for the next allocation of its class or freed.
    static func free(_ pointer: UnsafeMutableRawPointer, capacity: Int) {
        guard classes.contains(capacity) else { return sodium_free(pointer) }
        sodium_memzero(pointer, capacity)
        let keptIt = lock.withLock {
            guard kept[capacity, default: []].count < perClass else { return false }
            kept[capacity, default: []].append(pointer)
            return true
        }
        if !keptIt { sodium_free(pointer) }
    }
}
