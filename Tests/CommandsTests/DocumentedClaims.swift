import Foundation

/// What README.md and docs/*.md claim about the code, read from their text: the links, and the
/// backquoted spans that name a repository path, a pwtui command or option, or a type. Everything
/// else in backquotes (values, keys, environment variables, other programs' words) claims nothing
/// that the code can be asked about and is left alone. `DocumentationTests` checks each claim.
struct DocumentedClaims {
    /// A claim and where it is: "docs/agent.md:12".
    struct Claim: Equatable, CustomStringConvertible {
        let text: String
        let place: String
        var description: String { "\(place): `\(text)`" }
    }

    var links: [Claim] = []
    var paths: [Claim] = []
    /// `pwtui ...` (or one of its other names), inline or a line of a shell example.
    var commands: [Claim] = []
    /// `--option` alone, or with its value.
    var options: [Claim] = []
    /// `TypeName`, `TypeName.member`, `Module.TypeName`, `TypeName(argument)`.
    var types: [Claim] = []

    /// The names the binary answers to (argv[0] chooses, docs/ARCHITECTURE.md).
    static let entryPoints: Set<String> = ["pwtui", "git-credential-pwtui", "docker-credential-pwtui", "pwtui-askpass"]
    /// The repository's top-level entries a path may start with.
    static let topLevel: Set<String> = [
        "Sources", "Tests", "docs", "Benchmarks", "Fuzz", "Resources", ".ci", "Makefile", "Package.swift", "README.md",
    ]

    init(document text: String, name: String, modules: Set<String>) {
        var inFence = false
        var shellFence = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let place = "\(name):\(index + 1)"
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                inFence.toggle()
                let info = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces)
                // Only a block marked as shell: an unmarked one is a diagram or a file's text.
                shellFence = inFence && ["sh", "bash", "shell", "console"].contains(info)
                continue
            }
            if inFence {
                if shellFence { commands += Self.shellCommands(in: String(line)).map { Claim(text: $0, place: place) } }
                continue
            }
            for match in line.matches(of: /\]\(([^)\s]+)\)/) {
                let target = String(match.1)
                if target.hasPrefix("http:") || target.hasPrefix("https:") || target.hasPrefix("mailto:")
                    || target.hasPrefix("#")
                {
                    continue
                }
                links.append(Claim(text: target, place: place))
            }
            for match in line.matches(of: /`([^`]+)`/) {
                classify(String(match.1).trimmingCharacters(in: .whitespaces), place: place, modules: modules)
            }
        }
    }

    private mutating func classify(_ span: String, place: String, modules: Set<String>) {
        let claim = Claim(text: span, place: place)
        let first = span.split(separator: " ").first.map(String.init) ?? ""
        if Self.entryPoints.contains(first) {
            commands.append(claim)
        } else if span.wholeMatch(of: /--[a-z][a-z0-9-]*(?:[= ].*)?/) != nil {
            options.append(claim)
        } else if span.wholeMatch(of: /[\w.\-\/*]+/) != nil, !span.hasPrefix("/"), !span.hasPrefix("."),
            span.contains("/") || span.hasSuffix(".swift") || span.hasSuffix(".md")
        {
            // A path: from the repository's top (`Sources/...`), a target's (`VaultModel/Model`),
            // or any file's tail (`Context/VaultOpening.swift`). `.ci/run` is the one dotted top.
            paths.append(claim)
        } else if span.hasPrefix(".ci/") {
            paths.append(claim)
        } else if let match = span.wholeMatch(of: /([A-Z][A-Za-z0-9]*)((?:\.[A-Za-z_]\w*)*)(?:\(.*\))?(?:'s)?/) {
            // A type: two capitals at least (`VaultError`), or a member or a call (`Vault.open`,
            // `ExitStatus(error)`). One capitalised word alone (`Tab`, `Secret`, `Session`) is as
            // often a key, a field or a word as a type, and claims nothing checkable.
            let name = String(match.1)
            let capitals = name.filter(\.isUppercase).count
            let qualified = !match.2.isEmpty || span.contains("(")
            if name.contains(where: \.isLowercase), capitals >= 2 || qualified || modules.contains(name) {
                types.append(claim)
            }
        }
    }

    /// The pwtui commands on one line of a shell example: each command of a pipeline or list
    /// that starts with one of pwtui's names (after a `$ ` prompt), its trailing comment dropped.
    static func shellCommands(in line: String) -> [String] {
        var code = line.trimmingCharacters(in: .whitespaces)
        if code.hasPrefix("$ ") { code = String(code.dropFirst(2)) }
        if let comment = code.range(of: " #") { code = String(code[..<comment.lowerBound]) }
        return code.split(separator: /\s*(?:\||&&|;|\$\()\s*/).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { entryPoints.contains(String($0.split(separator: " ").first ?? "")) }
    }
}
