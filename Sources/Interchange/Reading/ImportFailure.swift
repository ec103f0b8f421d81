import UnicodeText
import VaultCrypto
import VaultModel

/// Why an export file cannot be read, and where: the file, the line and the column, so that the
/// user can open it at the spot. It never quotes a field: a field may be a password.
public struct ImportFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String?
    /// 1-based; nil when the failure is about the whole file (empty, too large).
    public var line: Int?
    /// 1-based, counted in bytes from the start of the line.
    public var column: Int?
    public var reason: String

    public init(file: String? = nil, line: Int? = nil, column: Int? = nil, _ reason: String) {
        self.file = file
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// The same failure, naming `file` (the readers do not know it).
    public func inFile(_ file: String) -> ImportFailure {
        var named = self
        named.file = file
        return named
    }

    public var description: String {
        // A file name from a pass store or an archive is anyone's: shown on one line, escaped.
        var place = file.map(PrintableText.escaped) ?? ""
        if let line { place += (place.isEmpty ? "" : ":") + "line \(line)" }
        if let column { place += ", column \(column)" }
        return place.isEmpty ? reason : "\(place): \(reason)"
    }
}

extension ImportFailure {
    /// `body`, which works in protected memory, with its one way to fail (no protected memory
    /// left) as an import failure: what every reader's scratch buffer needs.
    static func inProtectedMemory<Result: ~Copyable>(_ body: () throws(VaultCryptoError) -> Result)
        throws(ImportFailure) -> Result
    {
        do {
            return try body()
        } catch {
            throw ImportFailure("cannot allocate protected memory: \(error)")
        }
    }
}

extension ImportFailure: ExitStatusReporting {
    /// sysexits' EX_DATAERR: the input (here the export, not the vault) is wrong.
    public var exitStatus: ExitStatus { .corrupt }
}
