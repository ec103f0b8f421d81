// One port rule for every command (issue 38): `get nas.local` found `https://nas.local:5001` only
// through its title while `list` and `suggest` said "no credential"; `nas2.local:5000` saved
// without a scheme matched nothing; a miss only by port said nothing of the port.

import Foundation
@testable import Commands
import ServiceMatching
import Testing
import VaultModel

@Suite("the port rule, in process")
struct PortRuleInProcessTests {
    /// Titles that are not the hosts: nothing is found through a title fallback.
    static func fixture() throws -> CommandFixture {
        try CommandFixture([
            ("https://nas.local:5001", "admin", "nas-pw", "Synology"),
            ("nas2.local:5000", "kim", "nas2-pw", "Other NAS"),
            ("ssh://build.example", "deploy", "ssh-pw", "Build box"),
        ])
    }

    static func get(_ service: String, _ fixture: CommandFixture) throws -> (CommandFailure?, String) {
        let (failure, streams) = try fixture.failure(typing: CommandFixture.unlock) {
            try GetCredential(
                query: CredentialQuery(services: [try ServiceIdentifier(service)]), field: .password,
                noInteraction: false
            ).run(in: $0)
        }
        return (failure, streams.output)
    }

    @Test("a bare host finds the credential on any port through get, list and suggest alike")
    func bareHostAnyPort() throws {
        let fixture = try Self.fixture()
        #expect(try Self.get("nas.local", fixture).1 == "nas-pw\n")
        #expect(try Self.get("nas2.local", fixture).1 == "nas2-pw\n")
        #expect(try Self.get("http://nas2.local:5000", fixture).1 == "nas2-pw\n")
        #expect(try Self.get("build.example", fixture).1 == "ssh-pw\n")
        for host in ["nas.local", "nas2.local", "build.example"] {
            let listed = try fixture.run(typing: CommandFixture.unlock) {
                try ListCredentials(services: [host], format: .table, all: false).run(in: $0)
            }.output
            let suggested = try fixture.run {
                try ListCredentials(services: [host], format: .table, all: false).suggest(in: $0)
            }.output
            #expect(listed.split(separator: "\n").count == 2, "\(host): \(listed)")
            #expect(suggested == listed, "\(host)")
        }
    }

    @Test("a request that misses only by port names the saved service with its port, in get, list and suggest")
    func missByPortNamesThePort() throws {
        let fixture = try Self.fixture()
        let (failure, output) = try Self.get("https://nas.local", fixture)
        #expect(failure?.code == .noMatch)
        #expect(output.isEmpty)
        #expect(failure?.message.contains("https://nas.local:5001") == true, "\(String(describing: failure))")
        let (listed, _) = try fixture.failure(typing: CommandFixture.unlock) {
            try ListCredentials(services: ["nas2.local:5001"], format: .table, all: false).run(in: $0)
        }
        #expect(listed?.message.contains("nas2.local:5000") == true, "\(String(describing: listed))")
        let (suggested, _) = try fixture.failure {
            try ListCredentials(services: ["https://build.example"], format: .table, all: false).suggest(in: $0)
        }
        #expect(suggested?.message.contains("ssh://build.example") == true, "\(String(describing: suggested))")
        // Another host altogether: nothing about ports.
        let (other, _) = try Self.get("https://elsewhere.local", fixture)
        #expect(other?.message.contains("port") == false, "\(String(describing: other))")
    }

    @Test("add ssh://build.example is a service, kept as written (it was refused: use http or https)")
    func addAnotherScheme() throws {
        let fixture = try CommandFixture()
        try fixture.run(input: "pw\n", typing: CommandFixture.unlock) {
            try AddCredential(
                services: ["ssh://build.example", "sftp://files.example:2222/home"], username: "deploy", title: "",
                notes: "", rank: 0, generate: false
            ).run(in: $0)
        }
        let item = try #require(try fixture.vault().contents.credentials.first)
        #expect(item.services.map(\.text) == ["ssh://build.example", "sftp://files.example:2222/home"])
        #expect(item.title == "build.example")
    }
}
