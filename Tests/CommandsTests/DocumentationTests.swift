// The documents are checked like code (issue 39): every link and repository path in README.md and
// docs/*.md exists, every backquoted pwtui command and option is one the binary's parser has,
// every backquoted type is declared; docs/agent.md lists the agent's requests and replies,
// docs/design.md's exit-code table is `ExitStatus`, docs/limits.md names every size constant.

import Foundation
import Testing
import VaultModel

@Suite("Documentation")
struct DocumentationTests {
    static let index = RepositoryIndex.shared

    /// Names the documents put in backquotes as types that are not this repository's: what pwtui
    /// uses or avoids of Foundation and Apple's APIs, and other programs' words. Each is checked
    /// to still be named somewhere, so the list cannot outlive its use.
    static let foreignTypes: [String: String] = [
        "FileManager": "Foundation: what only Platform may use",
        "FileHandle": "Foundation: what only Platform may use",
        "ProcessInfo": "Foundation: what only Platform may use",
        "JSONSerialization": "Foundation: what the fuzzers compare against",
        "ISO8601DateFormatter": "Foundation: what the importer's dates are held to",
        "NSLock": "Foundation: what Platform's Lock replaced",
        "NSString": "Foundation: what UnicodeText replaced",
        "Process.run": "Foundation: what ChildProcess replaced",
        "ParsableCommand": "swift-argument-parser's protocol",
        "ASCredentialIdentityStore": "Apple's AutoFill API, the model (design.md)",
        "PrivateKeyInfo": "PKCS#8's ASN.1 structure",
        "MaxAuthTries": "an sshd_config setting",
        "UserKnownHostsFile": "an ssh_config setting",
        "ServerURL": "docker's credential-helper JSON key",
        "ProtectInMemory": "Bitwarden's export field",
        "Service": "the Secret Service or D-Bus API (secret-service.md)",
        "Collection": "the Secret Service or D-Bus API (secret-service.md)",
        "Item": "the Secret Service or D-Bus API (secret-service.md)",
        "Properties": "the Secret Service or D-Bus API (secret-service.md)",
        "Prompt": "the Secret Service or D-Bus API (secret-service.md)",
        "Session": "the Secret Service or D-Bus API (secret-service.md)",
        "Completed": "the Secret Service or D-Bus API (secret-service.md)",
        "CreateCollection": "the Secret Service or D-Bus API (secret-service.md)",
        "SetAlias": "the Secret Service or D-Bus API (secret-service.md)",
        "ItemCreated": "the Secret Service or D-Bus API (secret-service.md)",
        "ItemChanged": "the Secret Service or D-Bus API (secret-service.md)",
        "ItemDeleted": "the Secret Service or D-Bus API (secret-service.md)",
        "PropertiesChanged": "the Secret Service or D-Bus API (secret-service.md)",
        "NameOwnerChanged": "the Secret Service or D-Bus API (secret-service.md)",
        "CreateItem": "the Secret Service or D-Bus API (secret-service.md)",
        "SearchItems": "the Secret Service or D-Bus API (secret-service.md)",
        "GetSecret": "the Secret Service or D-Bus API (secret-service.md)",
        "GetSecrets": "the Secret Service or D-Bus API (secret-service.md)",
        "InvalidArgs": "the Secret Service or D-Bus API (secret-service.md)",
        "IsLocked": "the Secret Service or D-Bus API (secret-service.md)",
        "LimitsExceeded": "the Secret Service or D-Bus API (secret-service.md)",
        "NoSession": "the Secret Service or D-Bus API (secret-service.md)",
        "NoSuchObject": "the Secret Service or D-Bus API (secret-service.md)",
        "NotSupported": "the Secret Service or D-Bus API (secret-service.md)",
    ]

    /// Options of other programs the documents show beside pwtui's.
    static let foreignOptions: [String: String] = [
        "--authfile": "podman login's",
        "--sanitize=fuzzer --sanitize=address": "swift build's, for the fuzzers",
        "--counts 10000": "a benchmark script's",
    ]

    static func documents() throws -> [(name: String, text: String)] {
        let docs = RepositoryIndex.root.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }
            .sorted()
        return try (["README.md"] + names.map { "docs/" + $0 }).map { name in
            (name, try String(contentsOf: RepositoryIndex.root.appendingPathComponent(name), encoding: .utf8))
        }
    }

    /// Read once for the suite's tests (an empty list fails each test's count).
    static let allClaims: [DocumentedClaims] =
        (try? documents().map { DocumentedClaims(document: $0.text, name: $0.name, modules: index.modules) }) ?? []

    static func claims() throws -> [DocumentedClaims] { allClaims }

    @Test("every link and every repository path in README.md and docs/*.md exists")
    func pathsExist() throws {
        let claims = try Self.claims()
        var checked = 0
        for document in claims {
            for link in document.links {
                let directory = (link.place.split(separator: ":")[0] as NSString).deletingLastPathComponent
                let target = String(link.text.split(separator: "#")[0])
                let path = ((directory as NSString).appendingPathComponent(target) as NSString).standardizingPath
                let exists = FileManager.default.fileExists(
                    atPath: RepositoryIndex.root.appendingPathComponent(path).path)
                #expect(exists, "\(link): the link leads nowhere")
                checked += 1
            }
            for path in document.paths where Self.index.isRepositoryPath(path.text) {
                let exists = Self.index.exists(path.text)
                #expect(exists, "\(path): no such file or directory in the repository")
                checked += 1
            }
        }
        #expect(checked > 200, "only \(checked) paths and links found: is the reading broken?")
    }

    @Test("every backquoted pwtui command and option is one the binary's parser has")
    func commandsAndOptionsExist() throws {
        let tree = CommandTree.pwtui
        let options = tree.allOptions.union(CommandTree.builtIn)
        var checked = 0
        for document in try Self.claims() {
            for command in document.commands {
                if let problem = tree.problem(with: command.text) { Issue.record("\(command): \(problem)") }
                checked += 1
            }
            for option in document.options where Self.foreignOptions[option.text] == nil {
                let name = option.text.dropFirst(2).prefix { $0 != "=" && $0 != " " }
                #expect(options.contains(String(name)), "\(option): no pwtui command has --\(name)")
                checked += 1
            }
        }
        #expect(checked > 300, "only \(checked) commands and options found: is the reading broken?")
    }

    @Test("every backquoted type name is declared (and each member of it)")
    func typesExist() throws {
        var named: Set<String> = []
        for document in try Self.claims() {
            for type in document.types {
                named.insert(type.text)
                // `Service.OpenSession(…)` names the foreign `Service`.
                named.insert(String(type.text.prefix { $0 != "." && $0 != "(" }))
                if Self.foreignTypes[type.text] != nil { continue }
                if let problem = Self.problem(withType: type.text) { Issue.record("\(type): \(problem)") }
            }
        }
        #expect(named.count > 300, "only \(named.count) type names found: is the reading broken?")
        let unused = Set(Self.foreignTypes.keys).subtracting(named)
        #expect(unused.isEmpty, "no document names these any more, take them out of foreignTypes: \(unused.sorted())")
    }

    /// `Type.member(argument)'s`: the type declared, then each component a type or a member.
    static func problem(withType text: String) -> String? {
        let name = text.replacing(/\(.*\)/, with: "").replacing("'s", with: "")
        var components = name.split(separator: ".").map(String.init)
        if index.modules.contains(components[0]) {
            components.removeFirst()
            if components.isEmpty { return nil }
        } else if foreignTypes[components[0]] != nil {
            return nil
        }
        for component in components {
            if component.first?.isUppercase == true {
                if !index.types.contains(component) { return "no type \(component) is declared" }
            } else if !index.members.contains(component) {
                return "nothing named \(component) is declared"
            }
        }
        return nil
    }

    /// The backquoted lower-case names of the list item that starts with `opening`.
    static func listedNames(after opening: String, in text: String) -> Set<String> {
        guard let start = text.range(of: opening) else { return [] }
        let rest = text[start.upperBound...]
        let ends = ["\n- ", "\n\n"].compactMap { rest.range(of: $0)?.lowerBound }
        let item = rest[..<(ends.min() ?? rest.endIndex)]
        return Set(item.matches(of: /`([a-z]\w*)`/).map { String($0.1) })
    }

    /// The cases of an enum, from its file: the `case` lines at the type's own indentation.
    static func cases(in file: String) throws -> Set<String> {
        let text = try String(contentsOf: RepositoryIndex.root.appendingPathComponent(file), encoding: .utf8)
        return Set(text.matches(of: /(?m)^    case (\w+)/).map { String($0.1) })
    }

    @Test("docs/agent.md lists every request and reply of the agent, and no other")
    func agentMessagesAreListed() throws {
        let text = try String(contentsOf: RepositoryIndex.root.appendingPathComponent("docs/agent.md"), encoding: .utf8)
        let requests = try Self.cases(in: "Sources/VaultAgent/AgentRequest.swift")
        let replies = try Self.cases(in: "Sources/VaultAgent/AgentReply.swift")
        #expect(requests.count >= 10 && replies.count >= 10, "\(requests) \(replies)")
        for (opening, cases) in [("- Requests (`AgentRequest`):", requests), ("- Replies (`AgentReply`):", replies)] {
            let listed = Self.listedNames(after: opening, in: text)
            #expect(
                listed == cases,
                "docs/agent.md \(opening) misses \(cases.subtracting(listed).sorted()), names what is not a case: \(listed.subtracting(cases).sorted())"
            )
        }
    }

    @Test("docs/design.md's exit-code table is ExitStatus, code for code")
    func exitCodeTableIsTheMapping() throws {
        let text = try String(
            contentsOf: RepositoryIndex.root.appendingPathComponent("docs/design.md"), encoding: .utf8)
        let section = try #require(text.split(separator: "## Exit codes").dropFirst().first)
        let table = section.split(separator: "\n\n").first ?? ""
        let documented = table.matches(of: /(?m)^\| (\d+) \|/).compactMap { Int32($0.1) }
        #expect(documented == ExitStatus.allCases.map(\.rawValue).sorted(), "the table: \(documented)")
    }

    /// Constants whose names look like bounds but bound no input.
    static let notSizes: [String: String] = [
        "BcryptPBKDF.blockBytes": "the algorithm's block, not a bound",
        "Blowfish.stateBytes": "the cipher's state, not a bound",
        "GnuPG.timeLimit": "a time (gpg's decryption of a pass store), not a size",
    ]

    /// Every size constant: the whole of `Limits`, and elsewhere each `static let` whose name says
    /// it bounds something (`maximum…`, `…Limit`, `…Bytes`), qualified by its type.
    static func sizeConstants() throws -> Set<String> {
        var found: Set<String> = []
        for file in index.files where file.hasPrefix("Sources/") && file.hasSuffix(".swift") {
            let text = try String(contentsOf: RepositoryIndex.root.appendingPathComponent(file), encoding: .utf8)
            var enclosing: [(indent: Int, name: String)] = []
            for line in text.split(separator: "\n")
            where line.contains("static let ") || line.contains("struct ") || line.contains("enum ")
                || line.contains("class ") || line.contains("actor ") || line.contains("extension ")
            {
                let indent = line.prefix { $0 == " " }.count
                if let type = line.firstMatch(
                    of:
                        /^ *(?:(?:public|package|internal|private|fileprivate|final) +)*(?:struct|enum|class|actor|extension) +([\w.]+)/
                ) {
                    while let last = enclosing.last, last.indent >= indent { enclosing.removeLast() }
                    enclosing.append((indent, String(type.1)))
                    continue
                }
                guard let constant = line.firstMatch(of: /^ *(?:(?:public|package|internal) +)?static let (\w+)/),
                    let owner = enclosing.last(where: { $0.indent < indent })
                else { continue }
                let name = String(constant.1)
                let qualified = owner.name + "." + name
                if owner.name == "Limits" || name.hasPrefix("maximum") || name.hasSuffix("Limit")
                    || name.hasSuffix("Bytes"),
                    notSizes[qualified] == nil
                {
                    found.insert(qualified)
                }
            }
        }
        return found
    }

    @Test("docs/limits.md names every size constant, and none that is gone")
    func limitsAreListed() throws {
        let text = try String(
            contentsOf: RepositoryIndex.root.appendingPathComponent("docs/limits.md"), encoding: .utf8)
        let constants = try Self.sizeConstants()
        #expect(constants.count >= 15, "\(constants.sorted())")
        let named = Set(text.matches(of: /`(\w+\.\w+)`/).map { String($0.1) })
        let missing = constants.subtracting(named)
        #expect(missing.isEmpty, "docs/limits.md does not name \(missing.sorted())")
    }

    @Test("the checker finds a wrong path, command, option, type and member in a document")
    func checkerFindsMistakes() {
        let document = DocumentedClaims(
            document: """
                See `Sources/VaultModel/Nowhere.swift`, `Context/VaultOpening.swift` and [x](missing.md).
                Run `pwtui get --fieldz json` or `pwtui frobnicate`; `--no-such-option` too.
                `VaultErrorz` and `VaultError.nothingSuch` and `Tab` (a key, not checked).

                ```sh
                pwtui agent stat   # a typo in an example
                ```
                """, name: "test.md", modules: Self.index.modules)
        #expect(document.paths.map(\.text) == ["Sources/VaultModel/Nowhere.swift", "Context/VaultOpening.swift"])
        #expect(document.paths.map { Self.index.exists($0.text) } == [false, true])
        #expect(
            Self.index.isRepositoryPath("Context/VaultOpening") && !Self.index.isRepositoryPath("t/lib-credential.sh"))
        #expect(document.links.map(\.text) == ["missing.md"])
        let tree = CommandTree.pwtui
        #expect(
            document.commands.map { tree.problem(with: $0.text) != nil } == [true, true, true], "\(document.commands)")
        #expect(document.options.map(\.text) == ["--no-such-option"])
        #expect(document.types.map(\.text) == ["VaultErrorz", "VaultError.nothingSuch"])
        #expect(document.types.map { Self.problem(withType: $0.text) != nil } == [true, true])
        #expect(tree.problem(with: "pwtui ssh generate --type ed25519") == nil)
        #expect(tree.problem(with: "git-credential-pwtui get") == nil)
    }
}
