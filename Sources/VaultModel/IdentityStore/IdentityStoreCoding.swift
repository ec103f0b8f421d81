import FoundationEssentials
import ServiceMatching
import VaultCrypto

/// The identity store's binary pieces (see `IdentityStore` for the layout), written and read the
/// same way by the store's file and by its journal's records (`IdentityStore.Change`); an identity
/// and an SSH key's half are written and read where they are declared.
struct IdentityStoreWriter {
    var bytes: [UInt8] = []

    mutating func integer<Integer: FixedWidthInteger>(_ value: Integer) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func text(_ text: String) {
        integer(UInt32(text.utf8.count))
        bytes.append(contentsOf: text.utf8)
    }

    mutating func texts(_ texts: [String]) {
        integer(UInt32(texts.count))
        for text in texts { self.text(text) }
    }

    mutating func groups(_ groups: [[String]]) {
        integer(UInt32(groups.count))
        for group in groups { texts(group) }
    }

    mutating func uuid(_ id: UUID) {
        withUnsafeBytes(of: id.uuid) { bytes.append(contentsOf: $0) }
    }
}

struct IdentityStoreReader {
    struct Malformed: Error, ExitStatusReporting {
        var exitStatus: ExitStatus { .corrupt }
    }

    var cursor: ByteCursor
    /// Reused from one identity to the next: its services, unparsed.
    var services: [(text: UnsafeRawBufferPointer, host: UnsafeRawBufferPointer)] = []

    init(_ bytes: UnsafeRawBufferPointer) {
        cursor = ByteCursor(bytes: bytes) { _ in Malformed() }
    }

    mutating func raw() throws -> UnsafeRawBufferPointer { try cursor.take(Int(try cursor.u32())) }

    func text(_ bytes: UnsafeRawBufferPointer) throws -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw Malformed() }
        return text
    }

    mutating func text() throws -> String { try text(try raw()) }

    /// A count of things that take at least a byte each cannot exceed what is left.
    mutating func count() throws -> Int {
        let count = Int(try cursor.u32())
        guard count <= cursor.end - cursor.position else { throw Malformed() }
        return count
    }

    mutating func texts() throws -> [String] {
        try (0 ..< (try count())).map { _ in try text() }
    }

    mutating func groups() throws -> [[String]] {
        try (0 ..< (try count())).map { _ in try texts() }
    }
}
