internal import CZlib
import VaultCrypto
import VaultModel

/// The one funnel to zlib: a zip member's raw deflate data inflated into protected memory (it is
/// an export, full of passwords), and the CRC-32 a zip records for it. zlib keeps no pointer past
/// a call here: the stream is set up, run over both buffers and ended within `inflate`.
enum Inflate {
    enum Failure: Error, Equatable {
        /// The data is not deflate, or is cut short.
        case damaged(String)
        /// It inflates to more or fewer bytes than the archive says.
        case wrongSize
    }

    /// `compressed` (raw deflate, no zlib header: a zip member's method 8) inflated to exactly
    /// `size` bytes.
    static func inflate(_ compressed: UnsafeRawBufferPointer, size: Int) throws -> SecureBytes {
        var output = try SecureBytes(zeros: max(size, 1))
        var stream = z_stream()
        guard pwtui_inflate_init_raw(&stream) == Z_OK else { throw Failure.damaged("zlib could not start") }
        defer { inflateEnd(&stream) }
        let result: Int32 = output.withUnsafeMutableBytes { out in
            stream.next_in = UnsafeMutablePointer(mutating: compressed.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(compressed.count)
            stream.next_out = out.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(size)
            return CZlib.inflate(&stream, Z_FINISH)
        }
        switch result {
        case Z_STREAM_END:
            guard Int(stream.total_out) == size else { throw Failure.wrongSize }
        case Z_BUF_ERROR where stream.avail_out == 0:
            throw Failure.wrongSize
        default:
            let message = stream.msg.map { String(cString: $0) } ?? "error \(result)"
            throw Failure.damaged(message)
        }
        if size == 0 { return try SecureBytes(zeros: 0) }
        return output
    }

    /// The CRC-32 of `bytes`, as a zip records it.
    static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: uLong = CZlib.crc32(0, nil, 0)
        var offset = 0
        // zlib's length is 32 bits: feed a large buffer in pieces.
        while offset < bytes.count {
            let count = min(bytes.count - offset, 1 << 30)
            crc = CZlib.crc32(
                crc, bytes.baseAddress?.advanced(by: offset).assumingMemoryBound(to: Bytef.self), uInt(count))
            offset += count
        }
        return UInt32(truncatingIfNeeded: crc)
    }
}

extension Inflate.Failure: ExitStatusReporting {
    /// A damaged zip member: the export is wrong, as an `ImportFailure` says.
    var exitStatus: ExitStatus { .corrupt }
}
