#if canImport(Glibc)
    import Glibc
#endif

/// What stat(2) says about a file, the parts pwtui looks at.
public struct FileStatus: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, other
    }

    public let kind: Kind
    public let size: Int
    public let ownerID: UInt32
    /// The permission bits (e.g. 0o600), without the file type.
    public let permissions: UInt32
    /// Which file it is: a rename over the path makes another (device, inode) pair.
    public let device: UInt64
    public let inode: UInt64
    /// The last change to its contents, in nanoseconds since 1970.
    public let modifiedNanoseconds: Int64

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .fifo
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFSOCK: kind = .socket
        default: kind = .other
        }
        size = Int(info.st_size)
        ownerID = info.st_uid
        permissions = UInt32(info.st_mode & 0o7777)
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        modifiedNanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }
}
