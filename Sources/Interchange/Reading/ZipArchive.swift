import VaultCrypto

/// A zip archive (PKWARE's APPNOTE), read as far as an export needs: its central directory, and
/// one member's bytes, stored (method 0) or deflated (method 8), checked against its CRC-32.
/// 1Password's `.1pux` is one, holding `export.data` (JSON) beside attachments. Zip64, encrypted
/// and multi-disk archives are refused by name.
struct ZipArchive {
    struct Member {
        let name: String
        let method: UInt16
        let flags: UInt16
        let crc: UInt32
        let compressedSize: Int
        let size: Int
        let localHeader: Int
    }

    static let magic: [UInt8] = [0x50, 0x4B, 0x03, 0x04]

    let bytes: UnsafeRawBufferPointer
    let members: [Member]

    /// A refusal naming what the file is (a zip archive) before what is wrong with it.
    static func damaged(_ why: String) -> ImportFailure {
        ImportFailure("is a zip archive that is damaged (\(why))")
    }

    static func isZip(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 4 && zip(bytes, magic).allSatisfy { $0 == $1 }
    }

    init(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes = bytes
        func u16(_ at: Int) throws -> UInt16 {
            guard at >= 0, at + 2 <= bytes.count else { throw Self.damaged("cut short") }
            return UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
        }
        func u32(_ at: Int) throws -> UInt32 {
            UInt32(try u16(at)) | UInt32(try u16(at + 2)) << 16
        }
        // The end of central directory record: the last 22 bytes, or before a comment of up to 64 KiB.
        var end = -1
        var candidate = bytes.count - 22
        while candidate >= 0, candidate >= bytes.count - 22 - 65_535 {
            if try u32(candidate) == 0x0605_4B50 { end = candidate; break }
            candidate -= 1
        }
        guard end >= 0 else { throw Self.damaged("no central directory") }
        let count = Int(try u16(end + 10))
        let directory = Int(try u32(end + 16))
        guard count != 0xFFFF, directory != 0xFFFF_FFFF else {
            throw ImportFailure(
                "is a Zip64 archive, which pwtui does not read; the export inside is larger than pwtui imports")
        }
        var members: [Member] = []
        var at = directory
        for _ in 0 ..< count {
            guard try u32(at) == 0x0201_4B50 else { throw Self.damaged("a central directory entry is not one") }
            let nameLength = Int(try u16(at + 28)), extraLength = Int(try u16(at + 30)),
                commentLength = Int(try u16(at + 32))
            guard at + 46 + nameLength <= bytes.count else { throw Self.damaged("cut short") }
            let name = String(
                decoding: UnsafeRawBufferPointer(rebasing: bytes[(at + 46) ..< (at + 46 + nameLength)]), as: UTF8.self)
            members.append(
                Member(
                    name: name, method: try u16(at + 10), flags: try u16(at + 8), crc: try u32(at + 16),
                    compressedSize: Int(try u32(at + 20)), size: Int(try u32(at + 24)),
                    localHeader: Int(try u32(at + 42))))
            at += 46 + nameLength + extraLength + commentLength
        }
        self.members = members
    }

    /// The member called `name`, whole, in protected memory; nil when the archive has none.
    func read(_ name: String, limit: Int) throws -> SecureBytes? {
        guard let member = members.first(where: { $0.name == name }) else { return nil }
        guard member.flags & 1 == 0 else { throw ImportFailure("is an encrypted zip archive: \(name) cannot be read") }
        guard member.size <= limit else {
            throw ImportFailure("holds \(name) of \(member.size) bytes; pwtui reads at most \(limit) bytes")
        }
        let local = member.localHeader
        guard local + 30 <= bytes.count, bytes[local] == 0x50, bytes[local + 1] == 0x4B, bytes[local + 2] == 3,
            bytes[local + 3] == 4
        else {
            throw Self.damaged("\(name)'s header is not where the directory says")
        }
        let start =
            local + 30 + Int(UInt16(bytes[local + 26]) | UInt16(bytes[local + 27]) << 8)
            + Int(UInt16(bytes[local + 28]) | UInt16(bytes[local + 29]) << 8)
        guard start + member.compressedSize <= bytes.count else { throw Self.damaged("\(name) is cut short") }
        let data = UnsafeRawBufferPointer(rebasing: bytes[start ..< (start + member.compressedSize)])
        var contents: SecureBytes
        switch member.method {
        case 0:
            guard member.compressedSize == member.size else { throw Self.damaged("\(name)'s sizes differ") }
            contents = try SecureBytes(capacity: max(member.size, 1))
            try contents.append(contentsOf: data)
        case 8:
            do {
                contents = try Inflate.inflate(data, size: member.size)
            } catch let failure as Inflate.Failure {
                switch failure {
                case .damaged(let why): throw Self.damaged("\(name): \(why)")
                case .wrongSize: throw Self.damaged("\(name) is not the size the archive says")
                }
            }
        default:
            throw ImportFailure(
                "holds \(name) compressed with method \(member.method), which pwtui does not read (only stored and deflate)"
            )
        }
        let crc = contents.withUnsafeBytes { Inflate.crc32($0) }
        guard crc == member.crc else { throw Self.damaged("\(name) fails its CRC-32 check") }
        return contents
    }
}
