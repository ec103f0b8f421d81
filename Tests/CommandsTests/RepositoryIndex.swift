import Foundation

/// What the repository holds, for checking the documents against it: its files and directories,
/// the types and members its Swift declares, its modules, and the command tree of the binary.
struct RepositoryIndex {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every file, relative to the root (build products and git's own files left out).
    let files: Set<String>
    let directories: Set<String>
    /// Every type name declared or extended in Swift under Sources, Tests, Benchmarks and Fuzz,
    /// and every Swift file's name.
    let types: Set<String>
    /// Every name declared as a case, function, property or constant.
    let members: Set<String>
    /// The package's targets and products, the fuzzers', the benchmarks', and the system's.
    let modules: Set<String>
    /// What the build makes where a document may name it (`Fuzz/Crashes/`): .gitignore's rooted lines.
    let generated: Set<String>

    static let shared: RepositoryIndex = {
        do { return try RepositoryIndex() } catch { fatalError("cannot read the repository: \(error)") }
    }()

    init() throws {
        let root = Self.root.path
        var files: Set<String> = []
        var directories: Set<String> = []
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            if name == ".git" || name.hasPrefix(".build") || name == ".swiftpm" {
                enumerator?.skipDescendants()
                continue
            }
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory)
            if isDirectory.boolValue { directories.insert(path) } else { files.insert(path) }
        }
        self.files = files
        self.directories = directories
        var types: Set<String> = []
        var members: Set<String> = ["init"]
        // Word by word, not with a Regex over every file: this runs over the whole tree in well
        // under a second instead of many.
        let typeKeywords: Set<Substring> = ["struct", "enum", "class", "protocol", "actor", "typealias", "extension"]
        let memberKeywords: Set<Substring> = ["case", "func", "var", "let"]
        for file in files where file.hasSuffix(".swift") {
            // A file is named after its one concept (docs/ARCHITECTURE.md), also when that is a
            // set of extensions (`PercentEncoding`, `ExitStatusOfLowerLayers`).
            types.insert(String(((file as NSString).lastPathComponent as NSString).deletingPathExtension))
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split { !($0.isLetter || $0.isNumber || $0 == "_") }
                for (keyword, name) in zip(words, words.dropFirst()) {
                    if typeKeywords.contains(keyword), name.first?.isUppercase == true { types.insert(String(name)) }
                    if memberKeywords.contains(keyword) { members.insert(String(name)) }
                }
                // `case a, b(x), c`: every name of the list.
                let code = line.drop { $0 == " " }
                if code.hasPrefix("case "), !code.hasPrefix("case ."), !code.hasPrefix("case let") {
                    for piece in code.dropFirst(5).split(separator: ",") {
                        members.insert(
                            String(piece.drop { $0 == " " }.prefix { $0.isLetter || $0.isNumber || $0 == "_" }))
                    }
                }
            }
        }
        self.types = types
        self.members = members
        var modules: Set<String> = [
            "Swift", "Foundation", "FoundationEssentials", "Glibc", "Darwin", "Dispatch", "Synchronization", "Testing",
            "XCTest", "ArgumentParser",
        ]
        for manifest in ["Package.swift", "Fuzz/Package.swift", "Benchmarks/Package.swift"] {
            let text = try String(contentsOfFile: root + "/" + manifest, encoding: .utf8)
            for match in text.matches(of: /name: "([\w-]+)"/) { modules.insert(String(match.1)) }
        }
        // The fuzzers by the names `make fuzz` gives them (FUZZERS=ImportFile).
        let makefile = try String(contentsOfFile: root + "/Makefile", encoding: .utf8)
        if let line = makefile.split(separator: "\n").first(where: { $0.hasPrefix("FUZZERS ?=") }) {
            for name in line.dropFirst("FUZZERS ?=".count).split(separator: " ") { modules.insert(String(name)) }
        }
        self.modules = modules
        let ignored = try String(contentsOfFile: root + "/.gitignore", encoding: .utf8)
        generated = Set(
            ignored.split(separator: "\n").filter { $0.hasPrefix("/") }
                .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "/")) })
    }

    /// Whether a path a document writes is one of this repository's: it starts at the top
    /// (`Sources/...`), or with the name of a directory of the sources or tests (`VaultModel/...`,
    /// `Context/...`), or names a Swift file. Other paths (git's `t/...`, a pass store's
    /// `github.com/alice.gpg`, Apple's `quirks/...`) are other projects' and claim nothing here.
    func isRepositoryPath(_ path: String) -> Bool {
        let first = String(path.split(separator: "/").first ?? "")
        return DocumentedClaims.topLevel.contains(first) || path.hasPrefix(".ci/") || path.hasSuffix(".swift")
            || directoryNames.contains(first)
    }

    /// The names of the directories under Sources and Tests, at any depth.
    var directoryNames: Set<String> {
        Set(
            directories.filter { $0.hasPrefix("Sources/") || $0.hasPrefix("Tests/") }
                .map { ($0 as NSString).lastPathComponent })
    }

    /// Whether `path` (as a document writes it) names a file or directory: from the top, under
    /// Sources or Tests (`VaultModel/Model`), or as the tail of one (`Context/VaultOpening.swift`).
    /// A glob (`Fuzz/Corpus/SSHKeyFile/crash-*`) names its directory.
    func exists(_ written: String) -> Bool {
        var path = written
        if let star = path.firstIndex(of: "*") {
            path = String(path[..<star])
            path = path.hasSuffix("/") ? path : (path as NSString).deletingLastPathComponent
        }
        while path.hasSuffix("/") { path.removeLast() }
        if path.isEmpty { return false }
        if generated.contains(path) { return true }
        // A file is also named without its `.swift` (`Context/VaultOpening`: the concept).
        for name in [path, path + ".swift"] {
            for candidate in [name, "Sources/" + name, "Tests/" + name]
            where files.contains(candidate) || directories.contains(candidate) {
                return true
            }
            let tail = "/" + name
            if files.contains(where: { $0.hasSuffix(tail) }) || directories.contains(where: { $0.hasSuffix(tail) }) {
                return true
            }
        }
        return false
    }
}
