// `pwtui ssh edit` in one process, through the agent as a user's commands go: a key named by its
// title or id, its hosts replaced or cleared and its policy changed in one edit; what is refused.

import Foundation
import PwtuiTestSupport
@testable import Commands
import Testing
import VaultAgent
import VaultCrypto
import VaultModel

@Suite("ssh edit, in process")
struct SSHEditInProcessTests {
    static func fields(_ fixture: AgentInProcessTests.Fixture, title: String) throws -> (
        hosts: [String], confirm: String
    ) {
        let vault = try Vault.open(at: fixture.context.vaultPath, password: try secure("master"))
        let key = try #require(vault.contents.credentials.first { $0.title == title && $0.kind == .sshKey })
        return (SSHKeyItem.hosts(of: key), SSHKeyItem.confirmPolicy(of: key).rawValue)
    }

    @Test("hosts replaced (checked and lowercased) and the policy changed, by title; --no-hosts clears them")
    func edits() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        try GenerateSSHKey(title: "laptop", hosts: ["github.com"], confirm: .session).run(in: fixture.context)
        try GenerateSSHKey(title: "other", hosts: [], confirm: .each).run(in: fixture.context)

        try EditSSHKey(id: "laptop", hosts: ["GitLab.com", "10.0.0.2"], confirm: .never).run(in: fixture.context)
        var now = try Self.fields(fixture, title: "laptop")
        #expect(now.hosts == ["gitlab.com", "10.0.0.2"] && now.confirm == "never")
        #expect(fixture.streams.errorText.contains("laptop: for gitlab.com, 10.0.0.2; approval: never"))
        #expect(try Self.fields(fixture, title: "other").confirm == "each", "the other key untouched")

        // Only the policy: the hosts stay.
        try EditSSHKey(id: "laptop", hosts: nil, confirm: .each).run(in: fixture.context)
        now = try Self.fields(fixture, title: "laptop")
        #expect(now.hosts == ["gitlab.com", "10.0.0.2"] && now.confirm == "each")

        // By id prefix, cleared: offered to any host again, in the vault's order.
        let vault = try Vault.open(at: fixture.context.vaultPath, password: try secure("master"))
        let id = try #require(vault.contents.credentials.first { $0.title == "laptop" }).id.uuidString.prefix(8)
        try EditSSHKey(id: String(id), hosts: [], confirm: nil).run(in: fixture.context)
        #expect(try Self.fields(fixture, title: "laptop").hosts.isEmpty)
        #expect(fixture.streams.errorText.contains("laptop: bound to no host"))
    }

    @Test("refused with 64: nothing to change, a bad host, a login's title, a title two keys share; nothing saved")
    func refusals() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        try GenerateSSHKey(title: "twin", hosts: [], confirm: .session).run(in: fixture.context)
        try GenerateSSHKey(title: "twin", hosts: [], confirm: .session).run(in: fixture.context)
        let before = try Data(contentsOf: URL(fileURLWithPath: fixture.context.vaultPath))
        func refused(_ edit: EditSSHKey, saying text: String) {
            do {
                try edit.run(in: fixture.context)
                Issue.record("\(edit) was taken")
            } catch {
                #expect(ExitStatus(error) == .usage, "\(error)")
                #expect("\(error)".contains(text), "\(error)")
            }
        }
        refused(EditSSHKey(id: "twin", hosts: nil, confirm: nil), saying: "nothing to change")
        refused(EditSSHKey(id: "twin", hosts: ["https://github.com/"], confirm: nil), saying: "is not a host name")
        refused(EditSSHKey(id: "twin", hosts: nil, confirm: .never), saying: "2 SSH keys are titled 'twin'")
        // The fixture's login, titled GitHub: not an SSH key, by title or by id.
        let vault = try Vault.open(at: fixture.context.vaultPath, password: try secure("master"))
        let login = try #require(vault.contents.credentials.first { $0.kind == .login })
        refused(EditSSHKey(id: login.id.uuidString, hosts: nil, confirm: .never), saying: "not an SSH key")
        #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.context.vaultPath)) == before, "nothing saved")
    }
}
