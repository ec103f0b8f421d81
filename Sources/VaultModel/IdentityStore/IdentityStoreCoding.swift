import FoundationEssentials
import ServiceMatching
import VaultCrypto

/// The identity store's binary pieces (see `IdentityStore` for the layout), written and read the
/// same way by the store's file and by its journal's records (`IdentityStore` + `Change`).
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

    mutating func identity(_ identity: IdentityStore.Identity) {
        uuid(identity.id)
        text(identity.title)
        text(identity.username)
        integer(UInt32(bitPattern: identity.rank))
        if let oneTime = identity.oneTime {
            bytes += [1, oneTime.algorithm.rawValue, UInt8(oneTime.digits)]
            integer(UInt32(oneTime.period))
        } else {
            bytes.append(0)
        }
        bytes.append(identity.kind.rawValue)
        integer(UInt32(identity.services.count))
        for (service, host) in zip(identity.services, identity.hosts) {
            text(service)
            text(host)
        }
    }

    mutating func sshKey(_ key: IdentityStore.SSHPublicKey) {
        uuid(key.id)
        text(key.title)
        integer(UInt32(key.keyBlob.count))
        bytes += key.keyBlob
        texts(key.hosts)
    }
}

struct IdentityStoreReader {
    struct Malformed: Error {}

    var cursor: ByteCursor
    /// Reused from one identity to the next: its services, unparsed.
    private var services: [(text: UnsafeRawBufferPointer, host: UnsafeRawBufferPointer)] = []

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

    /// The next identity; nil when none of its hosts passes `filter` (it is skipped unparsed).
    mutating func identity(filter: HostFilter?) throws -> IdentityStore.Identity? {
        let id = try cursor.uuid()
        let title = try raw()
        let username = try raw()
        let rank = Int32(bitPattern: try cursor.u32())
        var oneTime: OneTimeParameters?
        if try cursor.u8() == 1 {
            guard let algorithm = HMAC.Algorithm(rawValue: try cursor.u8()) else { throw Malformed() }
            oneTime = OneTimeParameters(
                algorithm: algorithm, digits: Int(try cursor.u8()), period: Int(try cursor.u32()))
            guard oneTime?.isValid == true else { throw Malformed() }
        }
        guard let kind = ItemKind(rawValue: try cursor.u8()) else { throw Malformed() }
        services.removeAll(keepingCapacity: true)
        for _ in 0 ..< (try count()) { services.append((try raw(), try raw())) }
        if let filter, !services.contains(where: { filter.mayMatch(host: $0.host) }) { return nil }
        return IdentityStore.Identity(
            id: id, title: try text(title), username: try text(username),
            services: try services.map { try text($0.text) },
            hosts: try services.map { try text($0.host) }, rank: rank, oneTime: oneTime, kind: kind)
    }

    mutating func sshKey() throws -> IdentityStore.SSHPublicKey {
        let id = try cursor.uuid()
        let title = try text()
        let blob = Array(try raw())
        return IdentityStore.SSHPublicKey(id: id, title: title, keyBlob: blob, hosts: try texts())
    }
}
