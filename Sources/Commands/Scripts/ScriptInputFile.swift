import Platform

/// A file a script names for `run` (an .env file) or `inject` (a template): text, no secret in
/// it (its secrets are references), read through `RegularFile` (a FIFO or a device is refused).
enum ScriptInputFile {
    /// The UTF-8 text at `path`. Nothing there is 66 (sysexits' "cannot open input", as for a
    /// vault that is not there); unreadable 74; not UTF-8 64. `kind` names it in the messages.
    static func text(at path: String, kind: String) throws -> String {
        let bytes: [UInt8]?
        do {
            bytes = try RegularFile.readIfPresent(path)
        } catch {
            throw CommandFailure(.ioError, "\(error)")
        }
        guard let bytes else { throw CommandFailure(.noVault, "no \(kind) at \(path)") }
        return try text(of: bytes, from: path)
    }

    static func text(of bytes: [UInt8], from name: String) throws -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CommandFailure(.usage, "\(name) is not UTF-8 text")
        }
        return text
    }
}
