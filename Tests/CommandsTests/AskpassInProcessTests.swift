// `pwtui askpass PROMPT` in process: which credential answers each program's prompt, and that
// every refusal leaves stdout empty with its exit code. The real git, ssh and sudo asking are in
// CommandLineTests/AskpassProgramTests.

import Platform
import Testing
import VaultModel
@testable import Commands

@Suite("askpass, in process")
struct AskpassInProcessTests {
    static let hostName = HostName.current() ?? "localhost"

    static func fixture() throws -> CommandFixture {
        try CommandFixture([
            ("https://github.com", "octocat", "gh-pass", "GitHub"),
            ("https://github.com", "hubot", "hubot-pass", "GitHub bot"),
            ("build.example", "alice", "ssh-pass", ""),
            ("example.org", "bob", "parent-pass", ""),
            ("", "", "key-pass", "id_ed25519"),
            ("", "", "other-key-pass", "/srv/keys/deploy"),
            (hostName, "alice", "sudo-pass", ""),
        ])
    }

    @Test(
        "each prompt is answered with its credential's field and a line break",
        arguments: [
            ("Password for 'https://octocat@github.com': ", "gh-pass\n"),
            ("Password for 'https://hubot@github.com': ", "hubot-pass\n"),
            ("alice@build.example's password: ", "ssh-pass\n"),
            ("(alice@build.example) Password: ", "ssh-pass\n"),
            ("Enter passphrase for key '/home/alice/.ssh/id_ed25519': ", "key-pass\n"),
            ("Enter passphrase for /home/alice/.ssh/id_ed25519: ", "key-pass\n"),
            ("Enter passphrase for key '/srv/keys/deploy': ", "other-key-pass\n"),
            ("[sudo] password for alice: ", "sudo-pass\n"),
        ])
    func answers(prompt: String, expected: String) throws {
        let fixture = try Self.fixture()
        let streams = try fixture.run(passwordOnDescriptor: true) { try Askpass(prompt: prompt).run(in: $0) }
        #expect(streams.output == expected)
    }

    @Test("git's username prompt: the best match's username for the host")
    func username() throws {
        let fixture = try CommandFixture([("https://git.example", "octocat", "pw", "")])
        let streams = try fixture.run(passwordOnDescriptor: true) {
            try Askpass(prompt: "Username for 'https://git.example': ").run(in: $0)
        }
        #expect(streams.output == "octocat\n")
    }

    @Test(
        "no match, an unknown prompt: nothing on stdout, the reason on stderr, exit 1 or 64",
        arguments: [
            // A parent domain's password is another machine's: never typed into this one.
            ("bob@www.example.org's password: ", VaultModel.ExitStatus.noMatch),
            ("mallory@build.example's password: ", .noMatch),
            ("Password for 'https://octocat@gitlab.com': ", .noMatch),
            ("Enter passphrase for key '/home/alice/.ssh/id_rsa': ", .noMatch),
            ("[sudo] password for mallory: ", .noMatch),
            ("Are you sure you want to continue connecting (yes/no/[fingerprint])? ", .usage),
            ("Verification code: ", .usage),
        ])
    func refusals(prompt: String, status: VaultModel.ExitStatus) throws {
        let fixture = try Self.fixture()
        let (failure, streams) = try fixture.failure(passwordOnDescriptor: true) {
            try Askpass(prompt: prompt).run(in: $0)
        }
        #expect(failure?.code == status)
        #expect(streams.output.isEmpty)
        #expect(failure?.message.isEmpty == false)
    }

    @Test("locked, without a terminal: exit 75 and nothing on stdout; with one, unlocked there and answered")
    func locked() throws {
        let fixture = try Self.fixture()
        let prompt = "alice@build.example's password: "
        let (failure, streams) = try fixture.failure { try Askpass(prompt: prompt).run(in: $0) }
        #expect(failure?.code == .interactionRequired)
        #expect(streams.output.isEmpty)
        let typed = try fixture.run(typing: CommandFixture.unlock) { try Askpass(prompt: prompt).run(in: $0) }
        #expect(typed.output == "ssh-pass\n")
    }

    @Test("through the unlocked agent, with nobody to ask")
    func throughTheAgent() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        let recorded = try RecordedStreams()
        fixture.context.streams = recorded.streams
        try Askpass(prompt: "Password for 'https://octocat@github.com': ").run(in: fixture.context)
        #expect(recorded.output == "gh-secret\n")
        let none = try RecordedStreams()
        fixture.context.streams = none.streams
        #expect(throws: CommandFailure.self) {
            try Askpass(prompt: "Password for 'https://someone@github.com': ").run(in: fixture.context)
        }
        #expect(none.output.isEmpty)
    }

    @Test("a password with a line break (LF, or a CR anywhere) is not answered (64), saying why: it would be cut there")
    func lineBreak() throws {
        for secret in ["two\nlines", "half\rpassword", "ends in CR\r"] {
            let fixture = try CommandFixture([("build.example", "alice", secret, "")])
            let (failure, streams) = try fixture.failure(passwordOnDescriptor: true) {
                try Askpass(prompt: "alice@build.example's password: ").run(in: $0)
            }
            #expect(failure?.code == .usage, "\(secret.debugDescription): \(String(describing: failure))")
            #expect(failure?.message.contains("line break (CR or LF)") == true)
            #expect(streams.output.isEmpty)
        }
    }

    @Test("two credentials titled with the key's name are an error, not a guess")
    func ambiguousKey() throws {
        let fixture = try CommandFixture([("", "", "a", "id_ed25519"), ("", "", "b", "id_ed25519")])
        let (failure, streams) = try fixture.failure(passwordOnDescriptor: true) {
            try Askpass(prompt: "Enter passphrase for key '/root/.ssh/id_ed25519': ").run(in: $0)
        }
        #expect(failure != nil)
        #expect(streams.output.isEmpty)
    }
}
