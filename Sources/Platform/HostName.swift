#if canImport(Glibc)
    import Glibc
#endif

/// This machine's name, as `hostname` prints it: what sudo's password is saved for
/// (docs/askpass.md).
public enum HostName {
    /// gethostname(2); nil when it fails or is not UTF-8.
    public static func current() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        guard !bytes.isEmpty else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}
