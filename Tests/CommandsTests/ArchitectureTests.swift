// docs/ARCHITECTURE.md's rules, checked against every source file:
// - the table of which target may import which: a layer that reaches up (VaultModel importing
//   TUI, the executable importing Glibc) fails here, by file and line;
// - no files of one target that need each other in a circle. "Needs" is read from the text: a
//   file needs another when it names a type that the other declares at the top level. That is
//   coarse (a comment that names a type counts, so comments are stripped first) but it errs
//   towards finding a loop, never towards missing one that the compiler would see.

import Foundation
import ServiceMatching
import Testing

@Suite("Architecture")
struct ArchitectureTests {
    /// What each target may import besides the standard library's own modules: the "may import"
    /// column of docs/ARCHITECTURE.md's table, read from the document itself, so that the rule
    /// the test checks and the one a reader is told are one text. A cell's modules are the names
    /// in backquotes outside parentheses (a parenthesis explains, it grants nothing).
    static let allowed: [String: Set<String>] = {
        let document = sources.deletingLastPathComponent().appendingPathComponent("docs/ARCHITECTURE.md")
        guard let text = try? String(contentsOf: document, encoding: .utf8) else { return [:] }
        var table: [String: Set<String>] = [:]
        let row = /^\| `([\w-]+)` \| ([^|]*) \|/
        let parenthesis = /\([^)]*\)/
        let module = /`(\w+)`/
        for line in text.split(separator: "\n") {
            guard let match = line.firstMatch(of: row) else { continue }
            let cell = String(match.2).replacing(parenthesis, with: "")
            table[String(match.1)] = Set(cell.matches(of: module).map { String($0.1) })
        }
        return table
    }()

    /// Everywhere: the standard library's companions. FoundationEssentials, never the whole of
    /// Foundation: one `import Foundation` links it all, with ICU's data, into the static binary,
    /// 85 MB instead of 36 and most of a fresh process's memory (docs/speed.md).
    static let standard: Set<String> = ["FoundationEssentials", "Synchronization", "Dispatch"]

    static var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Sources")
    }

    static func imports(in file: URL) throws -> [(line: Int, module: String)] {
        let text = try String(contentsOf: file, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            let words = line.split(separator: " ").filter {
                !$0.hasPrefix("@") && !["internal", "public", "private"].contains($0)
            }
            guard words.count >= 2, words[0] == "import" else { return nil }
            return (index + 1, String(words[1]))
        }
    }

    @Test("every Swift target imports only what the layer table allows", arguments: allowed.keys.sorted())
    func importsFollowTheLayers(target: String) throws {
        let directory = Self.sources.appendingPathComponent(target)
        let files = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(!files.isEmpty, "no sources for \(target)")
        let allowed = Self.allowed[target, default: []].union(Self.standard)
        for file in files {
            for (line, module) in try Self.imports(in: file) where !allowed.contains(module) {
                Issue.record("\(target)/\(file.lastPathComponent):\(line) imports \(module), which \(target) may not")
            }
        }
    }

    @Test("the table is read from docs/ARCHITECTURE.md, and says what the layers are")
    func theTableIsTheDocument() {
        #expect(Self.allowed["VaultModel"]?.contains("TUI") == false)
        #expect(Self.allowed["pwtui"]?.contains("ArgumentParser") == true)
        #expect(
            Self.allowed["Interchange"]?.contains("CZlib") == true
                && Self.allowed["Interchange"]?.contains("Inflate") == false,
            "a name in parentheses grants nothing: \(Self.allowed["Interchange"] ?? [])")
        #expect(Self.allowed.count >= 10, "\(Self.allowed.keys.sorted())")
    }

    @Test("every target under Sources has a row in the table")
    func everyTargetIsInTheTable() throws {
        let targets = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
            .filter { !$0.hasPrefix("C") && !$0.hasPrefix(".") }
        for target in targets {
            #expect(Self.allowed[target] != nil, "\(target) is not in the layer table (docs/ARCHITECTURE.md)")
        }
    }

    /// The top-level types each file of `target` declares, and the files each file needs.
    static func dependencies(of target: String) throws -> [String: Set<String>] {
        let directory = sources.appendingPathComponent(target)
        let files = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        var texts: [String: String] = [:]
        var declaredIn: [String: String] = [:]
        let declaration = try Regex(
            #"(?m)^(?:(?:public|package|internal|fileprivate|private|final|indirect) )*(?:struct|enum|class|protocol|actor|typealias) (\w+)"#
        )
        for file in files {
            let name = String(file.path.dropFirst(directory.path.count + 1))
            let text = try String(contentsOf: file, encoding: .utf8)
            texts[name] = text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
                .joined(separator: "\n")
            for match in text.matches(of: declaration) {
                if let type = match.output[1].substring { declaredIn[String(type)] = name }
            }
        }
        var needs: [String: Set<String>] = [:]
        for (file, text) in texts {
            let words = Set(text.split { !$0.isLetter && !$0.isNumber && $0 != "_" }.map(String.init))
            needs[file] = Set(declaredIn.compactMap { type, home in home != file && words.contains(type) ? home : nil })
        }
        return needs
    }

    /// The groups of two or more files that reach one another (Tarjan's strongly connected components).
    static func loops(in needs: [String: Set<String>]) -> [[String]] {
        var index: [String: Int] = [:], low: [String: Int] = [:], stack: [String] = [], onStack: Set<String> = []
        var next = 0
        var found: [[String]] = []
        func visit(_ file: String) {
            index[file] = next; low[file] = next; next += 1
            stack.append(file); onStack.insert(file)
            for other in needs[file, default: []].sorted() {
                if index[other] == nil {
                    visit(other)
                    low[file] = min(low[file]!, low[other]!)
                } else if onStack.contains(other) {
                    low[file] = min(low[file]!, index[other]!)
                }
            }
            guard low[file] == index[file] else { return }
            var group: [String] = []
            while let top = stack.popLast() {
                onStack.remove(top)
                group.append(top)
                if top == file { break }
            }
            if group.count > 1 { found.append(group.sorted()) }
        }
        for file in needs.keys.sorted() where index[file] == nil { visit(file) }
        return found
    }

    @Test("no files of a target need each other in a loop", arguments: allowed.keys.sorted())
    func noLoopsBetweenFiles(target: String) throws {
        for loop in Self.loops(in: try Self.dependencies(of: target)) {
            Issue.record("\(target): these files need one another: \(loop.joined(separator: ", "))")
        }
    }

    /// A concept has one home (docs/ARCHITECTURE.md): a vault is opened with a master password in
    /// one place, `CommandContext.open` (Commands/Context/VaultOpening.swift), so every command, the
    /// picker, git's helper, `configure` and the agent get its checks (an interrupted passwd, the
    /// generation). Six places called `Vault.open` themselves, and two of them checked the
    /// generation.
    @Test("Commands opens a vault file in one place (issue 24, 5)")
    func oneOpeningPath() throws {
        let kit = Self.sources.appendingPathComponent("Commands")
        let files = try FileManager.default.subpathsOfDirectory(atPath: kit.path).filter { $0.hasSuffix(".swift") }
        var openers: [String] = []
        for file in files {
            let text = try String(contentsOf: kit.appendingPathComponent(file), encoding: .utf8)
            if text.contains("Vault.open(at:") { openers.append(file) }
        }
        #expect(openers == ["Context/VaultOpening.swift"], "opened elsewhere: \(openers.sorted())")
    }

    /// Only the access type talks to the agent for a command (issue 35): the rest of `Commands`
    /// names neither the context's agent nor an agent client's requests, so that whether the agent
    /// answers, and the rollback warning of what it answered from, are decided in one place. The
    /// agent's own side (`Agent/`: the service and `agent start|stop|status`) is the other end.
    @Test("only VaultAccess talks to the agent for a command (issue 35)")
    func oneWayToTheAgent() throws {
        let kit = Self.sources.appendingPathComponent("Commands")
        let files = try FileManager.default.subpathsOfDirectory(atPath: kit.path).filter { $0.hasSuffix(".swift") }
        let allowed = ["Access/VaultAccess.swift", "Context/CommandContext.swift"]
        let names = [
            "context.agent", ".agentClient", "agent.get(", "agent.ask(", "agent.request(", "agent.identities(",
        ]
        var talking: [String] = []
        for file in files where !allowed.contains(file) && !file.hasPrefix("Agent/") {
            let text = try String(contentsOf: kit.appendingPathComponent(file), encoding: .utf8)
            let code = text.split(separator: "\n").map { line in
                line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
            }
            if code.contains(where: { line in names.contains { line.contains($0) } }) { talking.append(file) }
        }
        #expect(talking.sorted() == [], "talk to the agent outside VaultAccess: \(talking.sorted())")
    }

    /// What only Platform may name: the file system's API (`FileManager`) and Foundation's
    /// whole-file reads. Platform is the one target that touches the file system (its calls in
    /// `FileSystem`, one Swift function each) and reads a file whole (`RegularFile`: regular files
    /// only, a size bound), so a read elsewhere cannot skip the funnel's checks and wait on a FIFO.
    /// Foundation's path and process calls too (issue 39): a link resolved (`ResolvedPath`), the
    /// environment and this machine (`Environment`, `HostName`), each in one place.
    static let platformOnly = [
        "FileManager", "Data(contentsOf", "String(contentsOf", "FileHandle", "ProcessInfo", "resolvingSymlinksInPath",
        "standardizedFileURL", "realpath(",
    ]

    /// Where `text` names something of `platformOnly`, by line; comments do not count.
    static func platformOnlyUses(in text: String) -> [(line: Int, name: String)] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().flatMap { index, line in
            let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
            return platformOnly.filter { code.contains($0) }.map { (index + 1, $0) }
        }
    }

    @Test(
        "only Platform touches the file system and the process: no FileManager, ProcessInfo or link resolution outside Sources/Platform (issues 28, 39)"
    )
    func fileSystemOnlyThroughPlatform() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.sources.path)
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("Platform/") }
        #expect(files.count > 100, "\(files.count) source files")
        for file in files {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            for (line, name) in Self.platformOnlyUses(in: text) {
                Issue.record(
                    "\(file):\(line) uses \(name); only Platform may (FileSystem, RegularFile, ResolvedPath, Environment, HostName)"
                )
            }
        }
    }

    @Test("the file-system check sees a use in code and none in a comment")
    func platformOnlyCheckWorks() {
        let uses = Self.platformOnlyUses(
            in: "let a = 1\nFileManager.default.fileExists(atPath: p) // FileHandle\n// Data(contentsOf: u)\n")
        #expect(uses.map(\.line) == [2] && uses.map(\.name) == ["FileManager"], "\(uses)")
    }

    /// A target of Package.swift: where its sources are and what it declares it depends on.
    struct PackageTarget {
        let name: String
        let directory: String
        let dependencies: Set<String>
    }

    /// Package.swift's targets, read from its text: each `.target(`, `.executableTarget(`,
    /// `.testTarget(` and `.systemLibrary(` call, its `name:`, `path:` and `dependencies:` (target
    /// names and `.product(name:)`s).
    static func packageTargets(_ manifest: String) -> [PackageTarget] {
        var targets: [PackageTarget] = []
        for call in manifest.matches(of: /\.(target|executableTarget|testTarget|systemLibrary)\(/) {
            var depth = 1
            var end = call.range.upperBound
            while depth > 0, end < manifest.endIndex {
                if manifest[end] == "(" { depth += 1 } else if manifest[end] == ")" { depth -= 1 }
                end = manifest.index(after: end)
            }
            let body = manifest[call.range.upperBound ..< end]
            guard let name = body.firstMatch(of: /name: "([\w-]+)"/).map({ String($0.1) }) else { continue }
            let path = body.firstMatch(of: /path: "([^"]+)"/).map { String($0.1) }
            var dependencies: Set<String> = []
            if let list = body.firstMatch(of: /dependencies: \[([^\]]*)\]/) {
                let text = String(list.1).replacing(/package: "[^"]*"/, with: "")
                dependencies = Set(text.matches(of: /"([\w-]+)"/).map { String($0.1) })
            }
            let home = call.1 == "testTarget" ? "Tests/" : "Sources/"
            targets.append(PackageTarget(name: name, directory: path ?? home + name, dependencies: dependencies))
        }
        return targets
    }

    /// The package's own modules (its targets, and the products of its dependencies) that a file
    /// imports but its target does not declare. SwiftPM builds such a file only because another
    /// target happened to build the module first: a parallel build or a target built alone fails.
    @Test("Package.swift declares every target and product a file imports (issue 39)")
    func packageDeclaresImports() throws {
        let root = Self.sources.deletingLastPathComponent()
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let targets = Self.packageTargets(manifest)
        #expect(targets.count >= 25, "read only \(targets.map(\.name)) from Package.swift")
        let modules = Set(targets.map(\.name)).union(["ArgumentParser"])
        for target in targets {
            let directory = root.appendingPathComponent(target.directory)
            let files =
                (FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL } ?? []).filter { $0.pathExtension == "swift" }
            for file in files {
                for (line, module) in try Self.imports(in: file)
                where modules.contains(module) && module != target.name && !target.dependencies.contains(module) {
                    let path = String(file.path.dropFirst(root.path.count + 1))
                    Issue.record(
                        "\(path):\(line) imports \(module), which Package.swift does not declare for \(target.name)")
                }
            }
        }
    }

    /// Test doubles (`GridTerminal`, `ScriptedPrompt` in `TUITestDoubles`) and the tests' helpers
    /// live under Tests: no target of the product under Sources may depend on one, so none ships.
    @Test("no target under Sources depends on one under Tests: test doubles never ship (issue 39)")
    func testDoublesStayInTests() throws {
        let root = Self.sources.deletingLastPathComponent()
        let targets = Self.packageTargets(
            try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8))
        let underTests = Set(targets.filter { $0.directory.hasPrefix("Tests/") }.map(\.name))
        #expect(underTests.contains("TUITestDoubles") && underTests.contains("PwtuiTestSupport"), "\(underTests)")
        for target in targets where target.directory.hasPrefix("Sources/") {
            let reaching = target.dependencies.intersection(underTests)
            #expect(reaching.isEmpty, "\(target.name) depends on \(reaching.sorted()), which only tests may")
        }
        let shipped = try FileManager.default.subpathsOfDirectory(atPath: Self.sources.path)
        #expect(!shipped.contains { $0.hasSuffix("/GridTerminal.swift") || $0.hasSuffix("/ScriptedPrompt.swift") })
    }

    @Test("Package.swift is read whole: names, paths, target and product dependencies")
    func packageReadingWorks() {
        let targets = Self.packageTargets(
            """
            .target(name: "A", dependencies: ["B", .product(name: "P", package: "p-package")]),
            .executableTarget(
                name: "tool", dependencies: ["A"],
                path: "Tests/Tool"),
            .testTarget(name: "ATests", dependencies: ["A"], exclude: ["x"]),
            .systemLibrary(name: "CLib", providers: [.apt(["lib-dev"])]),
            """)
        #expect(targets.map(\.name) == ["A", "tool", "ATests", "CLib"])
        #expect(targets.map(\.directory) == ["Sources/A", "Tests/Tool", "Tests/ATests", "Sources/CLib"])
        #expect(targets.map(\.dependencies) == [["B", "P"], ["A"], ["A"], []])
    }

    @Test("the loop finder finds a loop of three and none in a chain")
    func loopFinderWorks() {
        #expect(Self.loops(in: ["a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]]) == [["a", "b", "c"]])
        #expect(Self.loops(in: ["a": ["b"], "b": ["c"], "c": []]).isEmpty)
    }
}
