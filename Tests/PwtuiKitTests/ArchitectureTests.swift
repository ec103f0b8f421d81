// docs/ARCHITECTURE.md's table of which target may import which, checked against every source
// file: a layer that reaches up (VaultModel importing TUI, the executable importing Glibc) fails
// here, by file and line, before it can grow into a loop.

import Foundation
import ServiceMatching
import Testing

@Suite("Architecture")
struct ArchitectureTests {
    /// What each target may import besides the standard library's own modules.
    static let allowed: [String: Set<String>] = [
        "Platform": ["CSystem", "Glibc", "Darwin"],
        "VaultCrypto": ["CSodium", "Platform"],
        "ServiceMatching": ["CPSL", "Platform"],
        "VaultModel": ["VaultCrypto", "ServiceMatching", "Platform"],
        "VaultAgent": ["VaultModel", "VaultCrypto", "ServiceMatching", "Platform"],
        "TUI": ["VaultModel", "VaultCrypto", "ServiceMatching", "Platform", "CNcurses"],
        "PwtuiKit": ["TUI", "VaultAgent", "VaultModel", "VaultCrypto", "ServiceMatching", "Platform"],
        "pwtui": ["PwtuiKit", "VaultAgent", "VaultModel", "VaultCrypto", "ServiceMatching", "Platform", "ArgumentParser"],
        "FuzzTargets": ["VaultAgent", "VaultModel", "VaultCrypto", "ServiceMatching", "Platform"],
    ]
    /// Everywhere: the standard library's companions.
    static let standard: Set<String> = ["Foundation", "Synchronization", "Dispatch"]

    static var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
    }

    static func imports(in file: URL) throws -> [(line: Int, module: String)] {
        let text = try String(contentsOf: file, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            let words = line.split(separator: " ").filter { !$0.hasPrefix("@") && !["internal", "public", "private"].contains($0) }
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

    @Test("every target under Sources has a row in the table")
    func everyTargetIsInTheTable() throws {
        let targets = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
            .filter { !$0.hasPrefix("C") && !$0.hasPrefix(".") }
        for target in targets {
            #expect(Self.allowed[target] != nil, "\(target) is not in the layer table (docs/ARCHITECTURE.md)")
        }
    }
}
