// Tab completion as bash runs it: the script `pwtui --generate-completion-script bash` prints,
// sourced into a real bash, with COMP_WORDS set as bash sets them on a Tab.

import Foundation
import Testing

@Suite("shell completion")
struct CompletionTests {
    /// What bash would offer for `line` (its last word being completed), with pwtui on PATH.
    static func complete(_ line: [String], in sandbox: Sandbox) throws -> [String] {
        let bin = sandbox.root + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: bin + "/pwtui") {
            try FileManager.default.createSymbolicLink(
                atPath: bin + "/pwtui", withDestinationPath: try Binaries.require(Binaries.pwtui))
        }
        let words = line.map { "'\($0)'" }.joined(separator: " ")
        let script = """
            export PATH='\(bin)':"$PATH"
            source <(pwtui --generate-completion-script bash)
            COMP_WORDS=(\(words)); COMP_CWORD=\(line.count - 1)
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            _pwtui
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try sandbox.run("/bin/bash", ["-c", script])
        #expect(result.exitCode == 0, "\(result)")
        return result.out.split(separator: "\n").map(String.init)
    }

    @Test(
        "Tab after get, show, edit, rm offers the vault's services, titles and ids from the identity store, without unlocking (issue 26, 11)"
    )
    func credentialWords() throws {
        let sandbox = try Sandbox.withVault()
        let id = try sandbox.add(
            ["https://github.com/login"], username: "alice", secret: "pw", extra: ["--title", "GitHub work"])
        try sandbox.add(["gitlab.com"], username: "bob", secret: "pw2")

        let services = try Self.complete(["pwtui", "get", "git"], in: sandbox)
        #expect(services == ["github.com", "gitlab.com"], "hosts and services starting with git: \(services)")
        #expect(try Self.complete(["pwtui", "get", "https"], in: sandbox) == ["https://github.com/login"])
        #expect(!services.contains("GitHub work"), "get takes services: \(services)")

        let named = try Self.complete(["pwtui", "show", "Git"], in: sandbox)
        #expect(named.contains("GitHub work"), "\(named)")
        let byID = try Self.complete(["pwtui", "rm", String(id.prefix(3))], in: sandbox)
        #expect(byID.contains(String(id.prefix(8))), "\(byID)")

        // Nothing asked: no master password was given, and none is needed.
        let offered = try Self.complete(["pwtui", "edit", ""], in: sandbox)
        #expect(offered.contains("gitlab.com") && offered.contains("GitHub work"), "\(offered)")
    }
}
