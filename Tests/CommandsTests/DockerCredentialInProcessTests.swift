// docker-credential-pwtui's protocol in process: store, get, list and erase as docker and podman
// send them, and malformed requests refused with a message on stdout and nothing stored. Real
// podman logs in and out in CommandLineTests/ContainerRegistryTests.

import Foundation
import Testing
import VaultModel
@testable import Commands

@Suite("docker-credential-pwtui, in process")
struct DockerCredentialInProcessTests {
    /// One helper call, as docker makes it: `operation` with `input` on stdin, the master password
    /// on a descriptor.
    static func call(_ fixture: CommandFixture, _ operation: String, _ input: String) throws -> (
        failure: CommandFailure?, output: String
    ) {
        let (failure, streams) = try fixture.failure(input: input, passwordOnDescriptor: true) {
            try DockerCredentialHelper(context: $0).run(operation: operation)
        }
        return (failure, streams.output)
    }

    static func json(_ text: String) -> [String: String]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: String]
    }

    @Test("store, then get answers it; list names it; erase removes it and get finds nothing")
    func roundTrip() throws {
        let fixture = try CommandFixture([("https://github.com", "octocat", "web-pass", "GitHub")])
        // A secret with what JSON escapes: quotes, a backslash, a control character, non-ASCII.
        let secret = "p\"a\\ss\u{1}wörd/🔑"
        let login = #"{"ServerURL":"127.0.0.1:5000","Username":"ci","Secret":"p\"a\\ss\u0001w\u00f6rd\/🔑"}"#
        #expect(try Self.call(fixture, "store", login).failure == nil)
        let stored = try fixture.vault().contents.credentials.filter { $0.username == "ci" }
        #expect(stored.map(\.title) == ["127.0.0.1:5000 (container registry)"])
        #expect(stored.map { $0.services.map(\.text) } == [["https://127.0.0.1:5000"]])

        let got = try Self.call(fixture, "get", "127.0.0.1:5000\n")
        #expect(got.failure == nil)
        #expect(
            Self.json(got.output) == ["ServerURL": "127.0.0.1:5000", "Username": "ci", "Secret": secret])
        // The same registry named as a URL.
        #expect(Self.json(try Self.call(fixture, "get", "https://127.0.0.1:5000").output)?["Secret"] == secret)

        // Only the registry's login is listed, not the vault.
        let listed = try Self.call(fixture, "list", "")
        #expect(Self.json(listed.output) == ["https://127.0.0.1:5000": "ci"])

        #expect(try Self.call(fixture, "erase", "127.0.0.1:5000\n").failure == nil)
        let after = try Self.call(fixture, "get", "127.0.0.1:5000\n")
        #expect(after.failure?.code == .noMatch)
        #expect(after.output == DockerCredentialHelper.notFound + "\n")
        #expect(try fixture.vault().contents.credentials.map(\.username) == ["octocat"])
    }

    @Test("a second login to the same account replaces the secret and keeps the old one in history")
    func storeAgain() throws {
        let fixture = try CommandFixture()
        let first = #"{"ServerURL":"registry.example:5000","Username":"ci","Secret":"one"}"#
        let second = #"{"ServerURL":"registry.example:5000","Username":"ci","Secret":"two"}"#
        #expect(try Self.call(fixture, "store", first).failure == nil)
        #expect(try Self.call(fixture, "store", second).failure == nil)
        let vault = try fixture.vault()
        #expect(vault.contents.credentials.count == 1)
        #expect(vault.contents.credentials.first?.history.count == 1)
        #expect(Self.json(try Self.call(fixture, "get", "registry.example:5000").output)?["Secret"] == "two")
    }

    @Test("a logout never removes a credential a person saved for the host: named on stdout, kept")
    func eraseKeepsHandMade() throws {
        let fixture = try CommandFixture([("https://registry.example:5000", "me", "mine", "My registry")])
        let erased = try Self.call(fixture, "erase", "registry.example:5000")
        #expect(erased.failure?.code == .noMatch)
        #expect(erased.output.contains("My registry"))
        #expect(try fixture.vault().contents.credentials.count == 1)
        // get still answers with it: a registry is a service like any other.
        #expect(Self.json(try Self.call(fixture, "get", "registry.example:5000").output)?["Username"] == "me")
    }

    @Test(
        "malformed requests: a message on stdout, exit 64, nothing stored",
        arguments: [
            ("store", ""),
            ("store", "{"),
            ("store", "not json"),
            ("store", #"["ServerURL"]"#),
            ("store", #"{"ServerURL":"r.example","Username":"ci","Secret":"x",}"#),
            ("store", #"{"ServerURL":"r.example","Username":"ci"}"#),
            ("store", #"{"ServerURL":"r.example","Username":"ci","Secret":5}"#),
            ("store", #"{"ServerURL":"","Username":"ci","Secret":"x"}"#),
            ("store", #"{"ServerURL":"r.example","Username":"","Secret":"x"}"#),
            ("store", #"{"ServerURL":"r.example","Username":"ci","Secret":"\ud800"}"#),
            ("store", #"{"ServerURL":"https://u:p@r.example","Username":"ci","Secret":"x"}"#),
            ("get", ""),
            ("get", "  \n"),
            ("erase", ""),
            ("frobnicate", ""),
        ])
    func malformed(operation: String, input: String) throws {
        let fixture = try CommandFixture([("https://r.example", "ci", "kept", "")])
        let (failure, output) = try Self.call(fixture, operation, input)
        #expect(failure?.code == .usage)
        #expect(!output.isEmpty)
        #expect(output.trimmingCharacters(in: .newlines) == failure?.message)
        // The message never repeats a secret it was sent.
        #expect(!output.contains("u:p"))
        let credentials = try fixture.vault().contents.credentials
        #expect(credentials.count == 1)
    }

    @Test("every byte echoed from a server URL is printable: no raw ESC or BEL reaches docker's terminal")
    func printableEcho() throws {
        let fixture = try CommandFixture([("https://r.example", "ci", "kept", "")])
        for (operation, input) in [
            ("get", "r.example\u{1B}]2;pwned\u{07}"), ("erase", "\u{1B}[2J\u{1B}[31mhttps://x\u{07}"),
            ("store", #"{"ServerURL":"r.example\u001b]2;x\u0007","Username":"ci","Secret":"x"}"#),
        ] {
            let (failure, output) = try Self.call(fixture, operation, input)
            #expect(failure != nil, "\(operation)")
            #expect(!output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }, "\(output.debugDescription)")
        }
    }

    @Test("locked without a terminal: exit 75, the reason on stdout, nothing stored")
    func locked() throws {
        let fixture = try CommandFixture()
        let (failure, streams) = try fixture.failure(input: #"{"ServerURL":"r.example","Username":"ci","Secret":"x"}"#)
        {
            try DockerCredentialHelper(context: $0).run(operation: "store")
        }
        #expect(failure?.code == .interactionRequired)
        #expect(streams.output.contains("locked"))
        #expect(try fixture.vault().contents.credentials.isEmpty)
    }
}
