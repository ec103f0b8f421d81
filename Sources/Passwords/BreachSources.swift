import Platform

/// Choosing the backend for a path: a directory holds range files, a file is the ordered one.
public enum BreachSources {
    public static func open(_ path: String) throws(BreachLookupError) -> any BreachSource {
        let status: FileStatus
        do {
            status = try FileSystem.status(path)
        } catch {
            let operation = error.isNotFound ? "opening" : "reading"
            throw .unreadable(.system(path: path, operation: operation, error))
        }
        if status.kind == .directory { return RangeDirectory(path) }
        return try OrderedHashFile(path)
    }
}
