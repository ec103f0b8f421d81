// `pwtui run` and `pwtui inject` in process, with a real child (/bin/sh) where run starts one:
// references resolved from the vault (unlocked at the prompt, once), the child's environment and
// masked output, its exit status, the mistakes refused before anything runs or is written.

import Foundation
@testable import Commands
import Platform
import PwtuiTestSupport
import Testing
import VaultModel

@Suite("pwtui run and pwtui inject, in process")
struct RunInjectInProcessTests {
    static func fixture() throws -> CommandFixture {
        let fixture = try CommandFixture([
            ("github.com", "octocat", "gh-token-1", "GitHub"),
            ("api.example", "svc", "api-key-2", "API"),
            ("mail.example", "kim", "mail-3", "Mail"),
            ("mail.example", "kim2", "mail-4", "Mail 2"),
        ])
        try fixture.run(input: "4321\n", typing: CommandFixture.unlock) {
            var edit = EditCredential(id: "API", edits: CredentialChange.Edits(), generate: false)
            edit.fieldName = "deploy key"
            try edit.run(in: $0)
        }
        return fixture
    }

    /// `pwtui run [--env …] -- sh -c SCRIPT`, its ending, stdout and stderr.
    static func run(
        _ script: String, env: [String] = [], envFiles: [String] = [], masking: Bool = true, in fixture: CommandFixture,
        unlock: Bool = true
    ) throws -> (ending: ChildProcess.Ending?, output: String, errors: String, failure: CommandFailure?) {
        var ending: ChildProcess.Ending?
        var command = RunWithSecrets(command: ["/bin/sh", "-c", script])
        command.assignments = env
        command.envFiles = envFiles
        command.masking = masking
        var recorded: RecordedStreams?
        let (failure, streams) = try fixture.failure(typing: unlock ? CommandFixture.unlock : nil) {
            ending = try command.run(in: $0)
        }
        recorded = streams
        return (
            ending, recorded?.output ?? "",
            String(decoding: recorded?.errors.bytes ?? [], as: UTF8.self)
                + (recorded?.errorText ?? ""), failure
        )
    }

    @Test("the child gets the secrets in its environment; they are masked in its stdout and stderr; its status is kept")
    func secretsInTheEnvironment() throws {
        let fixture = try Self.fixture()
        let result = try Self.run(
            #"printf '%s|%s|%s\n' "$TOKEN" "$USER_NAME" "$KEY" > "$OUT"; echo "token $TOKEN"; echo "key $KEY" >&2; exit 7"#,
            env: [
                "TOKEN=pwtui://github.com", "USER_NAME=pwtui://github.com/username", "KEY=pwtui://API/deploy%20key",
                "OUT=\(fixture.root)/seen",
            ], in: fixture)
        #expect(result.failure == nil, "\(String(describing: result.failure))")
        #expect(result.ending == .exited(7))
        #expect(try String(contentsOfFile: fixture.root + "/seen", encoding: .utf8) == "gh-token-1|octocat|4321\n")
        #expect(result.output == "token <concealed by pwtui>\n")
        #expect(result.errors.contains("key <concealed by pwtui>") && !result.errors.contains("4321"))
    }

    @Test("--no-masking shows the output as the child wrote it; a child killed by a signal is reported as such")
    func unmaskedAndKilled() throws {
        let fixture = try Self.fixture()
        let shown = try Self.run(#"echo "$T""#, env: ["T=pwtui://github.com"], masking: false, in: fixture)
        #expect(shown.output == "gh-token-1\n")
        let killed = try Self.run("kill -TERM $$", in: fixture, unlock: false)
        #expect(killed.ending == .killed(signal: SIGTERM))
    }

    @Test("an .env file's references are replaced, --env wins over it, plain values pass as they are")
    func envFile() throws {
        let fixture = try Self.fixture()
        let path = fixture.root + "/app.env"
        try "# app\nexport TOKEN=pwtui://github.com\nPLAIN='left alone'\nMAIL=pwtui://mail.example\n".write(
            toFile: path, atomically: false, encoding: .utf8)
        let result = try Self.run(
            #"echo "$PLAIN"; [ "$TOKEN" = api-key-2 ] && echo overridden"#, env: ["TOKEN=pwtui://api.example"],
            envFiles: [path], in: fixture)
        // MAIL names two credentials: refused before the command runs.
        #expect(result.failure?.code == .usage, "\(String(describing: result.failure))")
        #expect(result.failure?.message.contains("names 2 credentials") == true)
        #expect(result.failure?.message.contains("Mail 2") == true, "the candidates are listed")
        #expect(result.output.isEmpty, "nothing ran")

        try "export TOKEN=pwtui://github.com\nPLAIN='left alone'\n".write(
            toFile: path, atomically: false, encoding: .utf8)
        let good = try Self.run(
            #"echo "$PLAIN"; [ "$TOKEN" = api-key-2 ] && echo overridden"#, env: ["TOKEN=pwtui://api.example"],
            envFiles: [path], in: fixture)
        #expect(good.output == "left alone\noverridden\n")
    }

    @Test(
        "mistakes end before anything runs: no match (1), a malformed reference or --env (64), a missing program (127)")
    func mistakes() throws {
        let fixture = try Self.fixture()
        #expect(try Self.run("echo ran", env: ["X=pwtui://nothing.example"], in: fixture).failure?.code == .noMatch)
        #expect(try Self.run("echo ran", env: ["X=pwtui://a/b/c"], in: fixture, unlock: false).failure?.code == .usage)
        #expect(try Self.run("echo ran", env: ["1X=y"], in: fixture, unlock: false).failure?.code == .usage)
        #expect(
            try Self.run("echo ran", envFiles: ["/nonexistent.env"], in: fixture, unlock: false).failure?.code
                == .noVault)
        var missing = RunWithSecrets(command: ["pwtui-no-such-program"])
        missing.masking = true
        var ending: ChildProcess.Ending?
        let recorded = try fixture.run { ending = try missing.run(in: $0) }
        #expect(ending == .exited(127))
        #expect(recorded.errorText.contains("no such program"))
        // No references: nothing is unlocked, nothing asked.
        let plain = try Self.run("echo plain", in: fixture, unlock: false)
        #expect(plain.output == "plain\n" && plain.failure == nil)
    }

    static func inject(_ template: String, output: String?, answerIsTerminal: Bool = false, in fixture: CommandFixture)
        throws -> (output: String, failure: CommandFailure?, messages: String)
    {
        let path = fixture.root + "/template"
        try template.write(toFile: path, atomically: false, encoding: .utf8)
        let (failure, streams) = try fixture.failure(typing: CommandFixture.unlock, answerIsTerminal: answerIsTerminal)
        {
            try InjectSecrets(input: path, output: output).run(in: $0)
        }
        return (streams.output, failure, streams.errorText)
    }

    @Test("a template is read in time linear in its size: 4 MB with 100 references, line numbers still right")
    func linearTemplate() throws {
        let chunk = String(repeating: "abcdefghijklmnopqrstuvwxyz 0123456789 {{ .Values.x }}\n", count: 750)
        let text =
            (0 ..< 100).map { _ in chunk + "token={{ pwtui://github.com }}\n" }.joined()
            + "broken={{ pwtui://github.com\n"
        #expect(text.utf8.count > 4_000_000)
        let start = ContinuousClock.now
        let failure = #expect(throws: CommandFailure.self) { _ = try SecretTemplate(text: text, path: "big") }
        let took = ContinuousClock.now - start
        // Counted from the start for each reference, 8 MB took 46 s; each line once, a second or two.
        #expect(took < .seconds(10), "\(took)")
        #expect(failure?.message.contains("big, line \(100 * 751 + 1):") == true, "\(String(describing: failure))")
        let filled = try SecretTemplate(
            text: String(text.dropLast("broken={{ pwtui://github.com\n".count)), path: "big")
        #expect(filled.references.count == 100 && filled.parts.count == 101)
    }

    @Test(
        "inject -o a symbolic link writes through it to its regular file, the link kept; a link to a device is refused")
    func outputThroughLink() throws {
        let fixture = try Self.fixture()
        let dotfiles = fixture.root + "/dotfiles"
        try FileManager.default.createDirectory(atPath: dotfiles, withIntermediateDirectories: true)
        try "old\n".write(toFile: dotfiles + "/npmrc", atomically: true, encoding: .utf8)
        let link = fixture.root + "/npmrc"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "dotfiles/npmrc")
        let written = try Self.inject("t={{ pwtui://github.com }}\n", output: link, in: fixture)
        #expect(written.failure == nil, "\(String(describing: written.failure))")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "dotfiles/npmrc", "still a link")
        #expect(try String(contentsOfFile: dotfiles + "/npmrc", encoding: .utf8) == "t=gh-token-1\n")
        // A dangling link: its target is made.
        let dangling = fixture.root + "/env"
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: dotfiles + "/env")
        #expect(try Self.inject("t={{ pwtui://github.com }}", output: dangling, in: fixture).failure == nil)
        #expect(try String(contentsOfFile: dotfiles + "/env", encoding: .utf8) == "t=gh-token-1")
        // A link to a device (`/dev/stdout` is one, through /proc): refused, the link untouched.
        let device = fixture.root + "/out"
        try FileManager.default.createSymbolicLink(atPath: device, withDestinationPath: "/dev/null")
        let refused = try Self.inject("t={{ pwtui://github.com }}", output: device, in: fixture)
        #expect(refused.failure?.code == .usage && refused.failure?.message.contains("not a regular file") == true)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: device) == "/dev/null")
    }

    @Test("inject fills the references into a 0600 file; other braces stay; stdout is refused when it is a terminal")
    func injectIntoFile() throws {
        let fixture = try Self.fixture()
        let output = fixture.root + "/npmrc"
        let result = try Self.inject(
            "token={{ pwtui://github.com }}\nuser={{pwtui://github.com/username}}\nkeep={{ .Values.x }}\r\n",
            output: output, in: fixture)
        #expect(result.failure == nil)
        #expect(
            try String(contentsOfFile: output, encoding: .utf8)
                == "token=gh-token-1\nuser=octocat\nkeep={{ .Values.x }}\r\n")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        #expect(result.messages.contains("with 2 secrets filled in"))

        let toStdout = try Self.inject("t={{ pwtui://github.com }}", output: nil, in: fixture)
        #expect(toStdout.output == "t=gh-token-1")
        let toTerminal = try Self.inject("t={{ pwtui://github.com }}", output: nil, answerIsTerminal: true, in: fixture)
        #expect(toTerminal.failure?.code == .usage && toTerminal.output.isEmpty)
    }

    @Test("inject leaves the old file as it was when a reference names nothing or several")
    func injectKeepsOldFile() throws {
        let fixture = try Self.fixture()
        let output = fixture.root + "/app.conf"
        try "old contents\n".write(toFile: output, atomically: false, encoding: .utf8)
        let ambiguous = try Self.inject("a={{ pwtui://mail.example }}", output: output, in: fixture)
        #expect(ambiguous.failure?.code == .usage)
        let missing = try Self.inject("a={{ pwtui://github.com/nofield }}", output: output, in: fixture)
        #expect(missing.failure?.code == .usage, "\(String(describing: missing.failure))")
        let open = try Self.inject("a={{ pwtui://github.com\n", output: output, in: fixture)
        #expect(open.failure?.code == .usage)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "old contents\n")
    }
}
