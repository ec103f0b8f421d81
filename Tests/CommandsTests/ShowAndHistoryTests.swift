// `show`, `history` and `edit --restore` in process: what they print (the password masked unless
// revealed, JSON escaped), the history's numbering that a restore takes, a restore through the
// unlocked agent, and the picker's detail screen saving a restore through `Picker.flow`.

import Foundation
import Platform
@testable import Commands
import ServiceMatching
import TUITestDoubles
import Testing
import TUI
import VaultAgent
import VaultCrypto
import VaultModel

@Suite("show, history and restore, in process")
struct ShowAndHistoryTests {
    /// The fixture's GitHub credential with a history (gh-1 → gh-2 → gh-secret) and notes, and
    /// a context that reads the master password from a pipe.
    final class Setup {
        let fixture: AgentInProcessTests.Fixture
        let id: UUID
        /// Kept open until the setup goes: a context reads its descriptor when it unlocks.
        private var pipes: [Pipe] = []

        init() throws {
            fixture = try AgentInProcessTests.Fixture()
            let vault = try Vault.open(
                at: fixture.context.vaultPath, password: try SecureBytes(copying: Array("master".utf8)))
            let github = try #require(vault.contents.credentials.first)
            id = github.id
            // The current password, gh-secret, was the first one: make it history twice over.
            try vault.replaceSecret(of: id, with: try SecureBytes(copying: Array("gh-1 \"quoted\"".utf8)))
            try vault.replaceSecret(of: id, with: try SecureBytes(copying: Array("gh-2".utf8)))
            try vault.update(id) { $0.notes = "recovery codes in the safe\nsecond line" }
            try vault.save()
        }

        /// A context that unlocks here with the master password from a fresh pipe (read once).
        var context: CommandContext {
            get throws {
                let pipe = Pipe()
                pipes.append(pipe)
                pipe.fileHandleForWriting.write(Data("master\n".utf8))
                try pipe.fileHandleForWriting.close()
                let context = CommandContext(
                    vault: fixture.context.vaultPath, masterPasswordFD: pipe.fileHandleForReading.fileDescriptor,
                    environment: fixture.context.environment)
                return context
            }
        }

        func password() throws -> (current: String, previous: [String]) {
            let vault = try Vault.open(
                at: fixture.context.vaultPath, password: try SecureBytes(copying: Array("master".utf8)))
            let credential = try #require(vault.contents.credential(withID: id))
            func text(_ reference: SecretReference) -> String {
                vault.withSecret(reference) { String(decoding: $0, as: UTF8.self) }
            }
            return (text(credential.secret), credential.previousSecrets.map { text($0.secret) })
        }
    }

    /// What `run` printed on stdout, `context`'s streams recorded for it.
    static func printed(in context: CommandContext, _ run: (CommandContext) throws -> Void) throws -> String {
        let recorded = try RecordedStreams()
        context.streams = recorded.streams
        try run(context)
        return recorded.output
    }

    static func text(_ bytes: borrowing SecureBytes) -> String {
        bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    @Test("show: everything but the password, which is dots until --reveal")
    func showMasked() throws {
        let setup = try Setup()
        let shown = try Self.printed(in: try setup.context) {
            try ShowCredential(reference: "github.com", reveal: false, format: .text).run(in: $0)
        }
        #expect(shown.hasPrefix("GitHub\n"))
        #expect(shown.contains("  id          \(setup.id.uuidString.lowercased())\n"))
        #expect(shown.contains("  username    octocat\n"))
        #expect(shown.contains("  password    ••••••••  (--reveal shows it)\n"))
        #expect(shown.contains("  services    github.com\n"))
        #expect(shown.contains("  last used   never here\n"))
        #expect(shown.contains("  notes       recovery codes in the safe\n              second line\n"))
        #expect(
            shown.contains(" history \(setup.id.uuidString.lowercased().prefix(8)))\n")
                && shown.contains("  history     2 previous passwords ("))
        #expect(!shown.contains("gh-2"))
    }

    @Test("show --reveal prints the password; --format json escapes it, null without --reveal")
    func showRevealedAndJSON() throws {
        let setup = try Setup()
        let shown = try Self.printed(in: try setup.context) {
            try ShowCredential(reference: "GitHub", reveal: true, format: .text).run(in: $0)
        }
        #expect(shown.contains("  password    gh-2\n"))
        let masked = try Self.printed(in: try setup.context) {
            try ShowCredential(reference: "github.com", reveal: false, format: .json).run(in: $0)
        }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(masked.utf8)) as? [String: Any])
        #expect(object["password"] is NSNull)
        #expect(object["username"] as? String == "octocat")
        #expect(object["notes"] as? String == "recovery codes in the safe\nsecond line")
        #expect((object["history"] as? [[String: Any]])?.map { $0["number"] as? Int } == [1, 2])
        #expect(object["lastUsed"] is NSNull)
        let revealed = try Self.printed(in: try setup.context) {
            try ShowCredential(reference: String(setup.id.uuidString.prefix(6)), reveal: true, format: .json).run(
                in: $0)
        }
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(revealed.utf8)) as? [String: Any])
        #expect(parsed["password"] as? String == "gh-2")
    }

    @Test("history: newest first, dated, dots unless --reveal")
    func history() throws {
        let setup = try Setup()
        let masked = try Self.printed(in: try setup.context) {
            try ShowHistory(reference: "github.com", reveal: false).run(in: $0)
        }
        let lines = masked.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.hasSuffix("  ••••••••") && $0.contains(" UTC  ") })
        #expect(lines.first?.hasPrefix("1  20") == true && lines.last?.hasPrefix("2  20") == true)
        let revealed = try Self.printed(in: try setup.context) {
            try ShowHistory(reference: "github.com", reveal: true).run(in: $0)
        }
        #expect(
            revealed.split(separator: "\n").map { $0.split(separator: " ").dropFirst(4).joined(separator: " ") }
                == ["gh-1 \"quoted\"", "gh-secret"])
    }

    @Test("history lists a secret field's earlier values after the passwords, masked unless --reveal; show counts them")
    func fieldHistory() throws {
        let setup = try Setup()
        let vault = try Vault.open(
            at: setup.fixture.context.vaultPath, password: try SecureBytes(copying: Array("master".utf8)))
        try vault.setField(of: setup.id, name: "PIN", text: nil, secret: try SecureBytes(copying: Array("1111".utf8)))
        try vault.setField(of: setup.id, name: "PIN", text: nil, secret: try SecureBytes(copying: Array("2222".utf8)))
        try vault.setField(of: setup.id, name: "PIN", text: nil, secret: try SecureBytes(copying: Array("3333".utf8)))
        try vault.save()
        let masked = try Self.printed(in: try setup.context) {
            try ShowHistory(reference: "github.com", reveal: false).run(in: $0)
        }
        let lines = masked.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines.prefix(2).allSatisfy { $0.first?.isNumber == true })
        #expect(lines.suffix(2).allSatisfy { $0.hasPrefix("field PIN  ") && $0.hasSuffix("  ••••••••") })
        #expect(!masked.contains("1111") && !masked.contains("2222"))
        let revealed = try Self.printed(in: try setup.context) {
            try ShowHistory(reference: "github.com", reveal: true).run(in: $0)
        }
        let fieldLines = revealed.split(separator: "\n").filter { $0.hasPrefix("field PIN") }
        #expect(fieldLines.map { $0.split(separator: " ").last.map(String.init) } == ["2222", "1111"], "newest first")
        #expect(fieldLines.first?.hasPrefix("field PIN  1  ") == true)
        let shown = try Self.printed(in: try setup.context) {
            try ShowCredential(reference: "github.com", reveal: false, format: .text).run(in: $0)
        }
        #expect(shown.contains("  history     2 previous passwords, 2 earlier field values ("))
    }

    @Test("through the unlocked agent: show and history without the master password, the same as rendered here")
    func throughTheAgent() throws {
        let setup = try Setup()
        #expect(try setup.fixture.unlock() == .done)
        for reveal in [false, true] {
            let here = try Self.printed(in: try setup.context) {
                try ShowCredential(reference: "github.com", reveal: reveal, format: .json).run(in: $0)
            }
            // The fixture's context has no --master-password-fd and no terminal: only the agent can answer.
            let agent = try Self.printed(in: setup.fixture.context) {
                try ShowCredential(reference: "github.com", reveal: reveal, format: .json).run(in: $0)
            }
            #expect(agent == here)
            let history = try Self.printed(in: setup.fixture.context) {
                try ShowHistory(reference: "GitHub", reveal: reveal).run(in: $0)
            }
            let historyHere = try Self.printed(in: try setup.context) {
                try ShowHistory(reference: "GitHub", reveal: reveal).run(in: $0)
            }
            #expect(history == historyHere)
            #expect(history.split(separator: "\n").count == 2)
        }
        let revealedByAgent = try Self.printed(in: setup.fixture.context) {
            try ShowCredential(reference: "github.com", reveal: true, format: .text).run(in: $0)
        }
        #expect(revealedByAgent.contains("  password    gh-2\n"))
    }

    @Test(
        "edit --restore N, as history numbers them, through the unlocked agent: the current password joins the history")
    func restoreThroughTheAgent() throws {
        let setup = try Setup()
        #expect(try setup.fixture.unlock() == .done)
        try EditCredential(id: "github.com", edits: .init(restore: 2), generate: false).run(in: setup.fixture.context)
        let (current, previous) = try setup.password()
        #expect(current == "gh-secret")
        #expect(previous.first == "gh-2", "the one it replaced is previous password 1")
        #expect(Set(previous) == ["gh-2", "gh-1 \"quoted\"", "gh-secret"])
        let failure = #expect(throws: AgentRefusal.self) {
            try EditCredential(id: "github.com", edits: .init(restore: 9), generate: false).run(
                in: setup.fixture.context)
        }
        #expect(failure?.status == .usage)
    }

    @Test("the picker's detail screen: the vault's password revealed, a restore saved, how the service matched")
    func detailScreenThroughPicker() throws {
        let setup = try Setup()
        let terminal = GridTerminal(size: TerminalSize(rows: 24, columns: 90))
        terminal.enqueue(typing: "master")
        terminal.press(.enter, .right, .text("r"), .tab, .text("R"), .text("y"), .escape, .escape)
        let flow = Picker.flow(
            on: terminal, vaultPath: setup.fixture.context.vaultPath,
            requests: [try ServiceIdentifier("https://github.com/login")],
            context: setup.fixture.context, agentField: nil)
        guard case .cancelled = try flow.run() else {
            Issue.record("Esc twice ends the picker")
            return
        }
        let texts = terminal.frames.map(\.text)
        #expect(texts.contains { $0.contains("Password    gh-2") }, "revealed from the vault")
        #expect(texts.contains { $0.contains("github.com  same-host") }, "how the service matched")
        #expect(texts.contains { $0.contains("Restored the password") })
        let (current, previous) = try setup.password()
        #expect(current == "gh-1 \"quoted\"")
        #expect(previous.first == "gh-2")
    }
}

extension GridTerminal {
    func press(_ keys: Key...) { for key in keys { enqueue(.key(key)) } }
}
