import FoundationEssentials
import VaultCrypto
import ServiceMatching
import Platform

// The payload: how a vault's contents become bytes before encryption, and back.
//
// The plaintext is a small binary format rather than JSON because it holds secrets: a JSON
// decoder would copy every password into a String, while this decoder leaves each secret where it
// lies in the decrypted buffer (which becomes the vault's SecretArena) and only records its
// offset. It is also fast: a 100,000-entry vault decodes in one linear pass with no escaping.
//
//     plaintext  := u32 contentLength, content, zero padding
//     content    := "PWP", u8 payloadVersion, record*
//     record     := u8 kind, u32 length, body            (all integers little-endian)
//     credential := field*                                 kind 1
//     field      := u8 tag, u32 length, value
//     tombstone  := uuid (16), i64 deleted ms,             kind 2; `seen` (format 1.3, optional:
//                   [i64 seen ms]                          the stamp of the version removed). A
//                                                          reader that stops after `deleted` and
//                                                          drops it only returns the merge to the
//                                                          removal's time (VaultReconcile.survives)
//     equivalents:= i64 modified ms, field*                kind 3 (format 1.1): one field per
//                                                          group, its domains joined by "\n"
//     totp field := u8 algorithm, u8 digits, u32 period,  tag 12 (format 1.2): the authenticator
//                   key bytes                              key, a secret like the password
//     named field:= u8 kind (0 text, 1 secret),            tag 13 (format 1.3): a named field;
//                   u32 name length, name, value           a secret one's value is in the arena
//     field past := u32 name length, name, i64 replaced ms, tag 14 (format 1.3): an earlier value
//                   value                                  of the secret field of that name
//     app link   := the link's text                       tag 15 (format 1.3): a service that is
//                                                          an app (android://…, iosapp://…)
//     totp past  := u8 algorithm, u8 digits, u32 period,  tag 16 (format 1.3, optional): a key
//                   i64 replaced ms, the key bytes         the credential had before; a reader
//                                                          that skips it only loses that history
//     item kind  := u8 (1 note, 2 card, 3 identity,      tag 17 (format 1.3): absent for a login;
//                   4 SSH key)                             4 read as a login before it was known
//     program    := a program's name                      tag 18 (format 1.4)
//     service of := the service's text                     tag 19 (format 1.5): a URL of a scheme
//     a scheme                                             other than http(s): ssh://, sftp://, …
//     secret set := i64 ms                                 tag 20 (format 1.6, optional): when an
//                                                          export says the password was set
//                                                          (`Credential.importedSecretSet`)
//     (format 1.3 also lets a credential have no service field at all, only a title)
//
// Every record and field carries its length, so a reader skips kinds and tags it does not know:
// a newer minor version can add fields without breaking older readers (which then refuse to
// save, see VaultHeader.minorVersion, so they never drop what they skipped). Repeated fields
// (services, history) simply appear more than once.
//
// Padding hides the exact size of the contents: the plaintext is rounded up to a multiple of a
// block that grows with the size (4 KiB, or 1/32 of the next power of two), so the file reveals
// the number of entries only to within about 3%.
package enum PayloadCodec {
    static let magic: [UInt8] = Array("PWP".utf8)
    static let version: UInt8 = 1

    enum Kind: UInt8 {
        case credential = 1
        case tombstone = 2
        case equivalents = 3
    }

    enum Field: UInt8 {
        case id = 1, created, modified, title, username, secret, notes, rank, service, history
        /// In the equivalents record: one group.
        case group = 11
        /// A credential's authenticator key (format 1.2).
        case totp = 12
        /// A named field, and an earlier value of a secret one (format 1.3).
        case namedField = 13, namedFieldHistory = 14
        /// A service that is an app link (format 1.3): its own tag, so that a 1.2 reader, which
        /// cannot parse one, skips it instead of calling the vault damaged.
        case appLink = 15
        /// An authenticator key replaced (or that lost a merge), with its time.
        case totpHistory = 16
        /// What the item is when it is not a login: u8, `ItemKind` (format 1.3).
        case itemKind = 17
        /// A program the credential may be given to, one field each (format 1.4). A 1.3 reader
        /// skips it, and refuses to save the vault it cannot fully keep.
        case allowedProgram = 18
        /// A service of a scheme other than http and https (`ssh://`, `sftp://`, … format 1.5,
        /// issue 38): its own tag, as app links have theirs, so that a 1.4 reader, which cannot
        /// parse one, skips it (and refuses to save) instead of calling the vault damaged.
        case otherSchemeService = 19
        /// When an import's export says the password was set, without its history (format 1.6).
        case importedSecretSet = 20
    }

    // MARK: Encoding

    package static func encode(_ contents: VaultContents) throws -> SecureBytes {
        try encode(contents, reservingBefore: 0, after: 0)
    }

    /// The padded plaintext with `before` zero bytes ahead of it and `after` behind it, in one
    /// protected buffer sized for all of it up front: room for the file header and the tag, so
    /// that the payload is encrypted where it was encoded and that buffer is the file image
    /// (`VaultFormat.sealImage`). A copy into a separate image held a 100 MB import's payload
    /// twice (issue 23); so would a buffer that had to grow.
    package static func encode(
        _ contents: VaultContents, reservingBefore before: Int, after: Int, padding: Padding = .file
    ) throws -> SecureBytes {
        var writer = try Writer(
            capacity: before + estimatedSize(of: contents, padding: padding) + after, prefix: before, padding: padding)
        try writer.bytes(magic)
        try writer.u8(version)
        for credential in contents.credentials {
            let start = try writer.beginRecord(.credential)
            try writer.uuidField(.id, credential.id)
            try writer.integerField(.created, UInt64(bitPattern: credential.created.millisecondsSince1970))
            try writer.integerField(.modified, UInt64(bitPattern: credential.modified.millisecondsSince1970))
            try writer.stringField(.title, credential.title)
            try writer.stringField(.username, credential.username)
            try contents.secrets.withBytes(of: credential.secret) { secret in
                try writer.field(.secret, secret)
            }
            if !credential.notes.isEmpty { try writer.stringField(.notes, credential.notes) }
            if credential.rank != 0 {
                try writer.field(.rank, length: 4)
                try writer.u32(UInt32(bitPattern: credential.rank))
            }
            for service in credential.services {
                let tag: Field =
                    service.form == .app
                    ? .appLink : service.scheme.map { !$0.isWeb } == true ? .otherSchemeService : .service
                try writer.stringField(tag, service.text)
            }
            if credential.kind != .login {
                try writer.field(.itemKind, length: 1)
                try writer.u8(credential.kind.rawValue)
            }
            for program in credential.allowedPrograms { try writer.stringField(.allowedProgram, program) }
            if let set = credential.importedSecretSet {
                try writer.integerField(.importedSecretSet, UInt64(bitPattern: set.millisecondsSince1970))
            }
            for previous in credential.history {
                try contents.secrets.withBytes(of: previous.secret) { secret in
                    try writer.field(.history, length: 8 + secret.count)
                    try writer.u64(UInt64(bitPattern: previous.replaced.millisecondsSince1970))
                    try writer.raw(secret)
                }
            }
            if let totp = credential.totp {
                try contents.secrets.withBytes(of: totp.key) { key in
                    try writer.field(.totp, length: 6 + key.count)
                    try writer.u8(totp.parameters.algorithm.rawValue)
                    try writer.u8(UInt8(totp.parameters.digits))
                    try writer.u32(UInt32(totp.parameters.period))
                    try writer.raw(key)
                }
            }
            for previous in credential.totpHistory {
                try contents.secrets.withBytes(of: previous.key.key) { key in
                    try writer.field(.totpHistory, length: 14 + key.count)
                    try writer.u8(previous.key.parameters.algorithm.rawValue)
                    try writer.u8(UInt8(previous.key.parameters.digits))
                    try writer.u32(UInt32(previous.key.parameters.period))
                    try writer.u64(UInt64(bitPattern: previous.replaced.millisecondsSince1970))
                    try writer.raw(key)
                }
            }
            for field in credential.fields {
                var name = field.name
                try name.withUTF8 { name in
                    switch field.value {
                    case .text(var text):
                        try text.withUTF8 { value in
                            try writer.field(.namedField, length: 1 + 4 + name.count + value.count)
                            try writer.u8(0)
                            try writer.u32(UInt32(name.count))
                            try writer.raw(UnsafeRawBufferPointer(name))
                            try writer.raw(UnsafeRawBufferPointer(value))
                        }
                    case .secret(let reference):
                        try contents.secrets.withBytes(of: reference) { value in
                            try writer.field(.namedField, length: 1 + 4 + name.count + value.count)
                            try writer.u8(1)
                            try writer.u32(UInt32(name.count))
                            try writer.raw(UnsafeRawBufferPointer(name))
                            try writer.raw(value)
                        }
                    }
                    for previous in field.history {
                        try contents.secrets.withBytes(of: previous.secret) { value in
                            try writer.field(.namedFieldHistory, length: 4 + name.count + 8 + value.count)
                            try writer.u32(UInt32(name.count))
                            try writer.raw(UnsafeRawBufferPointer(name))
                            try writer.u64(UInt64(bitPattern: previous.replaced.millisecondsSince1970))
                            try writer.raw(value)
                        }
                    }
                }
            }
            writer.endRecord(start)
        }
        for tombstone in contents.tombstones {
            let start = try writer.beginRecord(.tombstone)
            try writer.uuid(tombstone.id)
            try writer.u64(UInt64(bitPattern: tombstone.deleted.millisecondsSince1970))
            if let seen = tombstone.seen { try writer.u64(UInt64(bitPattern: seen.millisecondsSince1970)) }
            writer.endRecord(start)
        }
        if !contents.equivalents.groups.isEmpty || contents.equivalents.modified.millisecondsSince1970 != 0 {
            let start = try writer.beginRecord(.equivalents)
            try writer.u64(UInt64(bitPattern: contents.equivalents.modified.millisecondsSince1970))
            for group in contents.equivalents.groups {
                try writer.stringField(.group, group.joined(separator: "\n"))
            }
            writer.endRecord(start)
        }
        let padded = try writer.finishPadded(reserving: after)
        let paddedCount = padded.count - before - after
        guard paddedCount + XChaCha20Poly1305.tagByteCount <= Limits.vaultPayloadBytes else {
            throw VaultError.invalidRequest(
                "the vault would hold \(paddedCount) bytes, over pwtui's limit of \(Limits.vaultPayloadBytes); nothing was saved"
            )
        }
        return padded
    }

    /// How the plaintext is rounded up: a whole vault's to hide how many entries it holds, a
    /// journal record's (one change, `VaultJournal`) only to a small block, since a 4 KiB block
    /// per change would make the journal mostly padding.
    package enum Padding: Sendable {
        case file
        case record
    }

    /// The padded size that `contentLength` bytes of content occupy.
    static func paddedSize(contentLength: Int, padding: Padding = .file) -> Int {
        let unpadded = 4 + contentLength
        let block: Int
        switch padding {
        case .file:
            var power = 1
            while power < unpadded { power <<= 1 }
            block = max(4096, power >> 5)
        case .record:
            block = 256
        }
        return (unpadded + block - 1) / block * block
    }

    private static func estimatedSize(of contents: VaultContents, padding: Padding) -> Int {
        var size = 8
        for credential in contents.credentials {
            size += 5 + 5 * 7 + 16 + 16 + 4
            size += credential.title.utf8.count + credential.username.utf8.count + credential.notes.utf8.count
            size += credential.secret.count
            for service in credential.services { size += 5 + service.text.utf8.count }
            for previous in credential.history { size += 5 + 8 + previous.secret.count }
            if let totp = credential.totp { size += 5 + 6 + totp.key.count }
            for previous in credential.totpHistory { size += 5 + 14 + previous.key.key.count }
            size += 6 + 13  // the item kind, the imported secret's time
            for program in credential.allowedPrograms { size += 5 + program.utf8.count }
            for field in credential.fields {
                size += 5 + 5 + field.name.utf8.count + (field.text?.utf8.count ?? field.secret?.count ?? 0)
                for previous in field.history { size += 5 + 4 + field.name.utf8.count + 8 + previous.secret.count }
            }
        }
        size += contents.tombstones.count * (5 + 32)
        size += 5 + 8
        for group in contents.equivalents.groups { size += 5 + group.reduce(0) { $0 + $1.utf8.count + 1 } }
        return paddedSize(contentLength: size, padding: padding)
    }

    private struct Writer: ~Copyable {
        var buffer: SecureBytes
        /// Bytes reserved ahead of the plaintext (the file header's room), not part of it.
        let prefix: Int
        let padding: Padding

        init(capacity: Int, prefix: Int, padding: Padding) throws {
            var buffer = try cryptoCall { () throws(VaultCryptoError) in try SecureBytes(capacity: capacity) }
            // The reserved prefix, then the content's length, set by finishPadded.
            _ = try cryptoCall { () throws(VaultCryptoError) in try buffer.appendZeros(prefix + 4) }
            self.buffer = buffer
            self.prefix = prefix
            self.padding = padding
        }

        mutating func raw(_ bytes: UnsafeRawBufferPointer) throws {
            do { try buffer.append(contentsOf: bytes) } catch { throw VaultError.crypto(error) }
        }

        mutating func bytes(_ bytes: [UInt8]) throws {
            try bytes.withUnsafeBytes { raw in try self.raw(raw) }
        }

        mutating func u8(_ value: UInt8) throws {
            do { try buffer.append(value) } catch { throw VaultError.crypto(error) }
        }

        mutating func u32(_ value: UInt32) throws {
            try withUnsafeBytes(of: value.littleEndian) { raw in try self.raw(raw) }
        }

        mutating func u64(_ value: UInt64) throws {
            try withUnsafeBytes(of: value.littleEndian) { raw in try self.raw(raw) }
        }

        mutating func uuid(_ id: UUID) throws {
            try withUnsafeBytes(of: id.uuid) { raw in try self.raw(raw) }
        }

        mutating func field(_ tag: Field, length: Int) throws {
            try u8(tag.rawValue)
            try u32(UInt32(length))
        }

        mutating func field(_ tag: Field, _ value: UnsafeRawBufferPointer) throws {
            try field(tag, length: value.count)
            try raw(value)
        }

        mutating func stringField(_ tag: Field, _ value: String) throws {
            var value = value
            try value.withUTF8 { (utf8) throws in try field(tag, UnsafeRawBufferPointer(utf8)) }
        }

        mutating func uuidField(_ tag: Field, _ id: UUID) throws {
            try field(tag, length: 16)
            try uuid(id)
        }

        mutating func integerField(_ tag: Field, _ value: UInt64) throws {
            try field(tag, length: 8)
            try u64(value)
        }

        /// Writes the kind and a length placeholder; returns where the body starts.
        mutating func beginRecord(_ kind: Kind) throws -> Int {
            try u8(kind.rawValue)
            try u32(0)
            return buffer.count
        }

        mutating func endRecord(_ bodyStart: Int) {
            let length = UInt32(buffer.count - bodyStart).littleEndian
            buffer.withUnsafeMutableBytes { bytes in
                bytes.storeBytes(of: length, toByteOffset: bodyStart - 4, as: UInt32.self)
            }
        }

        /// The padded plaintext, followed by `suffix` zero bytes (the tag's room).
        consuming func finishPadded(reserving suffix: Int) throws -> SecureBytes {
            let contentLength = buffer.count - prefix - 4
            let padded = PayloadCodec.paddedSize(contentLength: contentLength, padding: padding)
            do { _ = try buffer.appendZeros(prefix + padded - buffer.count + suffix) } catch {
                throw VaultError.crypto(error)
            }
            let length = UInt32(contentLength).littleEndian
            let offset = prefix
            buffer.withUnsafeMutableBytes { bytes in
                bytes.storeBytes(of: length, toByteOffset: offset, as: UInt32.self)
            }
            return buffer
        }
    }

    // MARK: Decoding

    /// A cursor over the records of `all`, past the content's length, the marker and the encoding
    /// version (checked); the content's length with it, for sizing what is decoded.
    private static func records(_ all: UnsafeRawBufferPointer, path: String) throws -> (
        cursor: ByteCursor, contentLength: Int
    ) {
        var reader = ByteCursor(payload: all, path: path)
        let contentLength = Int(try reader.u32())
        guard contentLength <= all.count - 4 else { throw reader.malformed("payload length exceeds the payload") }
        reader.end = 4 + contentLength
        guard try reader.take(3).elementsEqual(magic) else { throw reader.malformed("payload marker missing") }
        let payloadVersion = try reader.u8()
        guard payloadVersion == version else {
            throw VaultError.unsupported(path: path, reason: "payload encoding version \(payloadVersion)")
        }
        return (reader, contentLength)
    }

    /// The credentials the plaintext `all` holds, counted as `decode` would read them (the
    /// marker, the version, every record's and every field's length within bounds) without
    /// building any. `all` may lie inside a larger buffer (a file image decrypted in place).
    package static func credentialCount(_ all: UnsafeRawBufferPointer, path: String) throws -> Int {
        var reader = try records(all, path: path).cursor
        var count = 0
        while !reader.isAtEnd {
            let kind = try reader.u8()
            var body = try reader.subcursor(Int(try reader.u32()))
            guard Kind(rawValue: kind) == .credential else { continue }
            while !body.isAtEnd {
                _ = try body.u8()
                _ = try body.subcursor(Int(try body.u32()))
            }
            count += 1
        }
        return count
    }

    /// Decodes a decrypted payload. The plaintext becomes the arena of the returned contents,
    /// so secrets are referenced in place. `path` only names the file in error messages.
    package static func decode(_ plaintext: consuming SecureBytes, path: String) throws -> VaultContents {
        try decodeRecords(plaintext, path: path).contents
    }

    /// What a payload or a journal record holds, record by record: the equivalents only when
    /// the plaintext has their record (a journal record has it when the change was to them).
    package struct Records {
        package var credentials: [Credential]
        package var tombstones: [Tombstone]
        package var equivalents: EquivalentDomains?
        /// The plaintext, which the credentials' secrets reference.
        package let secrets: SecretArena
        /// Where each credential is among `credentials`, by id: built anyway to refuse an id met
        /// twice, and what a journal's replay looks the records' credentials up in.
        package var positions: [UUID: Int]

        /// As a vault's contents (no equivalents record: none).
        package var contents: VaultContents {
            VaultContents(
                credentials: credentials, tombstones: tombstones, equivalents: equivalents ?? EquivalentDomains(),
                secrets: secrets)
        }
    }

    package static func decodeRecords(_ plaintext: consuming SecureBytes, path: String) throws -> Records {
        try decodeRecords(in: SecretArena(adopting: plaintext), path: path)
    }

    /// The records of the plaintext that `arena` holds (all of it), its secrets referenced there.
    package static func decodeRecords(in arena: SecretArena, path: String) throws -> Records {
        var credentials: [Credential] = []
        var tombstones: [Tombstone] = []
        var equivalents: EquivalentDomains?
        var positions: [UUID: Int] = [:]
        try arena.withAllBytes { all in
            var (reader, contentLength) = try records(all, path: path)
            credentials.reserveCapacity(contentLength / 128)
            positions.reserveCapacity(contentLength / 128)
            var removedIDs = Set<UUID>()
            while !reader.isAtEnd {
                let kind = try reader.u8()
                let length = Int(try reader.u32())
                var body = try reader.subcursor(length)
                // An id is one credential's or one tombstone's, never twice, never both.
                switch Kind(rawValue: kind) {
                case .credential:
                    let credential = try decodeCredential(&body)
                    guard positions.updateValue(credentials.count, forKey: credential.id) == nil,
                        removedIDs.isEmpty || !removedIDs.contains(credential.id)
                    else { throw reader.malformed("entry \(credential.id) appears twice") }
                    credentials.append(credential)
                case .tombstone:
                    let removed = try body.uuid()
                    let deleted = Timestamp(millisecondsSince1970: try body.i64())
                    let seen = body.isAtEnd ? nil : Timestamp(millisecondsSince1970: try body.i64())
                    guard positions[removed] == nil, removedIDs.insert(removed).inserted else {
                        throw reader.malformed("entry \(removed) appears twice")
                    }
                    tombstones.append(Tombstone(id: removed, deleted: deleted, seen: seen))
                case .equivalents:
                    let modified = Timestamp(millisecondsSince1970: try body.i64())
                    var groups: [[String]] = []
                    while !body.isAtEnd {
                        let tag = try body.u8()
                        var group = try body.subcursor(Int(try body.u32()))
                        guard tag == Field.group.rawValue else { continue }
                        groups.append(try group.string().split(separator: "\n").map(String.init))
                    }
                    equivalents = EquivalentDomains(groups: groups, modified: modified)
                case nil:
                    continue  // a record kind from a newer minor version
                }
            }
        }
        return Records(
            credentials: credentials, tombstones: tombstones, equivalents: equivalents, secrets: arena,
            positions: positions)
    }

    private static func decodeCredential(_ body: inout ByteCursor) throws -> Credential {
        var id: UUID?
        var created: Timestamp?
        var modified: Timestamp?
        var title = ""
        var username = ""
        var secret: SecretReference?
        var notes = ""
        var rank: Int32 = 0
        var services: [ServiceIdentifier] = []
        var history: [PreviousSecret] = []
        var totp: OneTimeKey?
        var totpHistory: [PreviousOneTimeKey] = []
        var fields: [NamedField] = []
        var fieldHistory: [(name: String, previous: PreviousSecret)] = []
        var kind = ItemKind.login
        var allowedPrograms: [String] = []
        var importedSecretSet: Timestamp?
        while !body.isAtEnd {
            let tag = try body.u8()
            let length = Int(try body.u32())
            var value = try body.subcursor(length)
            switch Field(rawValue: tag) {
            case .id: id = try value.uuid()
            case .created: created = Timestamp(millisecondsSince1970: try value.i64())
            case .modified: modified = Timestamp(millisecondsSince1970: try value.i64())
            case .title: title = try value.string()
            case .username: username = try value.string()
            case .secret: secret = value.remainingReference()
            case .notes: notes = try value.string()
            case .rank: rank = Int32(bitPattern: try value.u32())
            case .service, .appLink, .otherSchemeService:
                let text = try value.string()
                do {
                    services.append(try ServiceIdentifier(stored: text))
                } catch {
                    throw body.malformed("a stored service is invalid (\(error))")
                }
            case .history:
                let replaced = Timestamp(millisecondsSince1970: try value.i64())
                history.append(PreviousSecret(secret: value.remainingReference(), replaced: replaced))
            case .totp:
                guard let algorithm = HMAC.Algorithm(rawValue: try value.u8()) else {
                    throw body.malformed("an unknown one-time code algorithm")
                }
                let parameters = OneTimeParameters(
                    algorithm: algorithm, digits: Int(try value.u8()), period: Int(try value.u32()))
                guard parameters.isValid else { throw body.malformed("one-time code parameters out of range") }
                totp = OneTimeKey(parameters: parameters, key: value.remainingReference())
            case .totpHistory:
                guard let algorithm = HMAC.Algorithm(rawValue: try value.u8()) else {
                    throw body.malformed("an unknown one-time code algorithm")
                }
                let parameters = OneTimeParameters(
                    algorithm: algorithm, digits: Int(try value.u8()), period: Int(try value.u32()))
                guard parameters.isValid else { throw body.malformed("one-time code parameters out of range") }
                let replaced = Timestamp(millisecondsSince1970: try value.i64())
                totpHistory.append(
                    PreviousOneTimeKey(
                        key: OneTimeKey(parameters: parameters, key: value.remainingReference()), replaced: replaced))
            case .namedField:
                let kind = try value.u8()
                let name = try value.string(Int(try value.u32()))
                switch kind {
                case 0: fields.append(NamedField(name: name, value: .text(try value.string())))
                case 1: fields.append(NamedField(name: name, value: .secret(value.remainingReference())))
                default: throw body.malformed("a named field of an unknown kind")
                }
            case .namedFieldHistory:
                let name = try value.string(Int(try value.u32()))
                let replaced = Timestamp(millisecondsSince1970: try value.i64())
                fieldHistory.append((name, PreviousSecret(secret: value.remainingReference(), replaced: replaced)))
            case .itemKind:
                // A kind from a newer version is listed as a login rather than refused.
                kind = ItemKind(rawValue: try value.u8()) ?? .login
            case .allowedProgram:
                allowedPrograms.append(try value.string())
            case .importedSecretSet:
                importedSecretSet = Timestamp(millisecondsSince1970: try value.i64())
            case .group, nil:
                continue  // not a credential field, or one from a newer minor version
            }
        }
        for (name, previous) in fieldHistory {
            guard let index = fields.firstIndex(where: { $0.name == name && $0.isSecret }) else {
                throw body.malformed("an earlier value of a secret field that is not there")
            }
            fields[index].history.append(previous)
        }
        guard let id, let created, let modified, let secret else {
            throw body.malformed("a credential lacks its id, times or secret")
        }
        var credential = Credential(
            id: id, title: title, services: services, username: username, secret: secret,
            notes: notes, rank: rank, created: created, modified: modified, history: history, totp: totp,
            fields: fields, kind: kind)
        credential.totpHistory = totpHistory
        credential.allowedPrograms = Set(allowedPrograms).sorted()
        credential.importedSecretSet = importedSecretSet
        return credential
    }
}

extension ByteCursor {
    /// A cursor over the decrypted payload of the vault at `path`.
    init(payload bytes: UnsafeRawBufferPointer, path: String) {
        self.init(bytes: bytes) { reason in
            VaultError.corrupt(path: path, reason: "the decrypted contents are malformed: \(reason)")
        }
    }

    /// The rest of the current record is a secret: where it lies in the arena.
    mutating func remainingReference() -> SecretReference {
        defer { position = end }
        return SecretReference(offset: position, count: end - position)
    }
}
