import VaultCrypto

/// What `pwtui run` does to the child's output: every occurrence of a secret it was given is
/// replaced by `<concealed by pwtui>` before the bytes reach the terminal or a log.
///
/// Output arrives in chunks, and a secret can be split across two of them ("hun" then "ter2").
/// So the masker holds back the end of a chunk while it could still become a secret: exactly the
/// longest tail that is a proper prefix of some secret, and nothing else. Holding back a fixed
/// length would be simpler, but a prompt printed without a newline ("Password: ") would then sit
/// in the buffer until the child writes more, which for a prompt is never. Where two secrets
/// start at the same place the longer is masked (a secret that is the start of another must not
/// leave the other's end in view); the earliest start wins otherwise. The bytes held back may be
/// part of a secret, so they live in protected memory.
struct SecretMasker: ~Copyable {
    static let replacement = Array("<concealed by pwtui>".utf8)

    /// Every secret, one after the other, and where each is.
    private let secrets: SecureBytes
    private let ranges: [Range<Int>]
    private var pending: SecureBytes

    /// `values`: copied in (empty ones mask nothing).
    init(secrets values: [UnsafeRawBufferPointer]) throws {
        let pending = try SecureBytes(capacity: 4096)
        var secrets = try SecureBytes(capacity: values.reduce(0) { $0 + $1.count })
        var ranges: [Range<Int>] = []
        for value in values where !value.isEmpty {
            let start = secrets.count
            try secrets.append(contentsOf: value)
            ranges.append(start ..< secrets.count)
        }
        self.secrets = secrets
        self.ranges = ranges
        self.pending = pending
    }

    /// Masks `chunk` as the continuation of what came before, and passes on every byte that can
    /// no longer become part of a secret.
    mutating func mask(_ chunk: UnsafeRawBufferPointer, into emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        try pending.append(contentsOf: chunk)
        try drain(final: false, into: emit)
    }

    /// The end of the output: what was held back goes out (no secret can complete it now).
    mutating func finish(into emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        try drain(final: true, into: emit)
    }

    private mutating func drain(final: Bool, into emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        let ranges = self.ranges
        let consumed: Int = try secrets.withUnsafeBytes { all in
            let secrets = ranges.map { UnsafeRawBufferPointer(rebasing: all[$0]) }
            return try pending.withUnsafeBytes { bytes in
                var start = 0
                var position = 0
                while position < bytes.count {
                    // A longer secret that may still complete here comes first: masking a shorter
                    // one now would leave the longer one's end in view.
                    if !final && Self.couldStartSecret(in: bytes, at: position, secrets: secrets) {
                        break
                    } else if let length = Self.longestSecret(in: bytes, at: position, secrets: secrets) {
                        try emit(UnsafeRawBufferPointer(rebasing: bytes[start ..< position]))
                        try Self.replacement.withUnsafeBytes { try emit($0) }
                        position += length
                        start = position
                    } else {
                        position += 1
                    }
                }
                try emit(UnsafeRawBufferPointer(rebasing: bytes[start ..< position]))
                return position
            }
        }
        // Keep only what was held back, moved to the front.
        let kept = pending.count - consumed
        if consumed > 0 {
            pending.withUnsafeMutableBytes { bytes in
                if kept > 0, let base = bytes.baseAddress {
                    base.copyMemory(from: base + consumed, byteCount: kept)
                }
            }
            pending.removeLast(consumed)
        }
    }

    /// The length of the longest secret that starts at `position`, complete within `bytes`.
    private static func longestSecret(
        in bytes: UnsafeRawBufferPointer, at position: Int, secrets: [UnsafeRawBufferPointer]
    ) -> Int? {
        var longest: Int?
        for secret in secrets where secret.count <= bytes.count - position && secret.count > (longest ?? 0) {
            if secret.elementsEqual(bytes[position ..< position + secret.count]) {
                longest = secret.count
            }
        }
        return longest
    }

    /// Whether the bytes from `position` to the end are a proper prefix of some secret: the
    /// rest of it may be in the next chunk.
    private static func couldStartSecret(
        in bytes: UnsafeRawBufferPointer, at position: Int, secrets: [UnsafeRawBufferPointer]
    )
        -> Bool
    {
        let tail = bytes.count - position
        return secrets.contains { secret in
            secret.count > tail && secret[0 ..< tail].elementsEqual(bytes[position...])
        }
    }
}
