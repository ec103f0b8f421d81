import VaultModel
import VaultCrypto

/// A child's environment as execve takes it (`NAME=value` C strings), built in protected
/// memory, because some values are secrets (`pwtui run`): they go from the vault's answer into
/// this block and from here into the child, never through a `String`.
struct EnvironmentBlock: ~Copyable {
    private let bytes: SecureBytes
    /// Where each `NAME=value\0` starts.
    private let starts: [Int]

    init(_ variables: [(name: String, value: String)], secrets: borrowing ScriptSecrets) throws {
        var bytes = try SecureBytes(capacity: 4096)
        var starts: [Int] = []
        for (name, value) in variables {
            // A NUL would end the string early; the variable could not be passed as it is.
            guard !name.utf8.contains(0), !value.utf8.contains(0) else {
                throw CommandFailure(
                    .usage, "the environment variable \(name) holds a NUL byte; it cannot be passed on")
            }
            starts.append(bytes.count)
            try bytes.append(utf8: name + "=")
            if let reference = try SecretURI(value) {
                try secrets.withValue(of: reference) { secret in
                    guard !secret.contains(0) else {
                        throw CommandFailure(
                            .usage, "\(reference) holds a NUL byte, which an environment variable cannot carry")
                    }
                    try bytes.append(contentsOf: secret)
                }
            } else {
                try bytes.append(utf8: value)
            }
            try bytes.append(0)
        }
        self.bytes = bytes
        self.starts = starts
    }

    /// The entries, nil-terminated, valid only within `body`.
    func withEntries<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try bytes.withUnsafeBytes { (all) throws(Failure) -> Result in
            let base = all.baseAddress?.assumingMemoryBound(to: CChar.self)
            var pointers: [UnsafePointer<CChar>?] = []
            pointers.reserveCapacity(starts.count + 1)
            if let base { for start in starts { pointers.append(UnsafePointer(base + start)) } }
            pointers.append(nil)
            return try pointers.withUnsafeBufferPointer { (entries) throws(Failure) -> Result in try body(entries) }
        }
    }
}
