import FoundationEssentials

/// A path with `.`, `..` and every symbolic link in it resolved: the one name of the file it leads
/// to. Where two names for one file must be told the same (the identity store's name for a
/// vault, the work tree's top and a file in it, this binary and the pwtui on PATH).
/// Foundation's resolution, kept here so that path and process calls stay in Platform
/// (`ArchitectureTests`); the identity store's file name is a hash of this, so its answers must
/// not change.
public enum ResolvedPath {
    /// `path` made absolute against the current directory (`FileSystem.absolute`), then resolved.
    /// A part that does not exist is kept as written.
    public static func of(_ path: String) -> String {
        URL(fileURLWithPath: FileSystem.absolute(path)).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
