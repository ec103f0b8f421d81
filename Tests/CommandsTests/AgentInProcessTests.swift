// The agent's whole exchange — typed requests, framing, the server's connection handling and
// the service's work on the vault — in one process: the client's connections are one end of a
// socket pair whose other end the server serves as it would an accepted client.

import Foundation
import Platform
import PwtuiTestSupport
@testable import Commands
import ServiceMatching
import Testing
import VaultAgent
import VaultCrypto
import VaultModel

@Suite("Agent, in process")
struct AgentInProcessTests {
    /// A vault with one credential, a context around it, and an agent serving that context.
    final class Fixture {
        let root: String
        let context: CommandContext
        let service: AgentService
        let server: AgentServer
        let client: AgentClient
        /// The context's stdout and stderr; no terminal.
        let streams: RecordedStreams

        /// `settings`: the settings file's text, written before the agent reads it (once, as it starts).
        init(idleTimeout: Duration = .seconds(60), settings: String? = nil) throws {
            root = NSTemporaryDirectory() + "pwtui-kit-" + UUID().uuidString
            try FileManager.default.createDirectory(
                atPath: root, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            if let settings {
                try FileManager.default.createDirectory(
                    atPath: root + "/config/pwtui", withIntermediateDirectories: true)
                try settings.write(toFile: root + "/config/pwtui/config.toml", atomically: true, encoding: .utf8)
            }
            let environment = Environment([
                "HOME": root, "XDG_CONFIG_HOME": root + "/config", "XDG_STATE_HOME": root + "/state",
                "XDG_RUNTIME_DIR": root + "/run",
            ])
            streams = try RecordedStreams()
            context = CommandContext(vault: root + "/vault.pwtui", environment: environment, streams: streams.streams)
            let vault = try Vault.createCheaply(at: context.vaultPath, password: "master")
            try vault.add(
                services: [try ServiceIdentifier("github.com")], username: "octocat",
                secret: try SecureBytes(copying: Array("gh-secret".utf8)), title: "GitHub")
            try vault.save()
            service = AgentService(context: context, idleTimeout: idleTimeout)
            server = AgentServer(socketPath: "", handler: service)
            let server = server
            client = AgentClient(connect: { server.connectInProcess() })
            context.agentClient = client
        }

        func unlock(_ password: String = "master") throws -> AgentReply? {
            try client.request(.unlock, payload: try SecureBytes(copying: Array(password.utf8)))?.body
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }
    }

    /// Whether the client declined to answer (nil: the caller would unlock on its own).
    static func declined(_ answer: consuming AgentMessage<AgentReply>?) -> Bool {
        switch consume answer {
        case .none: return true
        case .some: return false
        }
    }

    static func absent(_ found: consuming FoundPassword?) -> Bool {
        switch consume found {
        case .none: return true
        case .some: return false
        }
    }

    static func text(_ payload: borrowing SecureBytes) -> String {
        payload.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    @Test(
        "through the agent: an item without a site by its title, a named field by its name, a missing one refused as a usage error"
    )
    func titlesAndFields() throws {
        let fixture = try Fixture()
        let vault = try Vault.open(
            at: fixture.context.vaultPath, password: try SecureBytes(copying: Array("master".utf8)))
        let wifi = try vault.add(
            services: [], username: "", secret: try SecureBytes(copying: Array("wifi-pass".utf8)), title: "Home Wi-Fi")
        try vault.setField(of: wifi.id, name: "SSID", text: "home-net", secret: try SecureBytes(zeros: 0))
        try vault.setField(
            of: wifi.id, name: "admin PIN", text: nil, secret: try SecureBytes(copying: Array("2468".utf8)))
        try vault.save()
        #expect(try fixture.unlock() == .done)
        let path = fixture.context.vaultPath
        guard let byTitle = try fixture.client.get(CredentialQuery(title: "home wi-fi"), field: .password, vault: path)
        else {
            Issue.record("declined")
            return
        }
        #expect(Self.text(byTitle.payload) == "wifi-pass\n")
        guard
            let pin = try fixture.client.get(
                CredentialQuery(title: "Home Wi-Fi"), field: .named("admin pin"), vault: path)
        else {
            Issue.record("declined")
            return
        }
        #expect(Self.text(pin.payload) == "2468\n")
        #expect(throws: AgentRefusal.self) {
            _ = try fixture.client.get(CredentialQuery(title: "Home Wi-Fi"), field: .named("nope"), vault: path)
        }
        // A service request never reaches it.
        #expect(throws: AgentRefusal.self) {
            _ = try fixture.client.get(
                CredentialQuery(services: [try ServiceIdentifier("home")]), field: .password, vault: path)
        }

        // `get` as the command runs it: a one-word service that matches nothing is tried as a title.
        let (query, fallback) = try GetCredential.query(words: ["Home Wi-Fi"], id: nil)
        #expect(query.title == "Home Wi-Fi" && fallback == nil)
        let (hostQuery, hostFallback) = try GetCredential.query(words: ["router"], id: nil)
        #expect(hostQuery.services.map(\.host) == ["router"] && hostFallback == "router")
    }

    @Test("locked, a get is declined (the caller unlocks on its own); unlocked, it answers the field")
    func getBeforeAndAfterUnlock() throws {
        let fixture = try Fixture()
        let query = CredentialQuery(services: [try ServiceIdentifier("https://github.com/login")])
        let declinedWhileLocked = Self.declined(
            try fixture.client.get(query, field: .password, vault: fixture.context.vaultPath))
        #expect(declinedWhileLocked)
        #expect(try fixture.unlock() == .done)
        guard let answer = try fixture.client.get(query, field: .password, vault: fixture.context.vaultPath),
            case .credential(let identity, _, _) = answer.body
        else {
            Issue.record("no credential in the answer")
            return
        }
        #expect(identity.username == "octocat" && identity.title == "GitHub")
        #expect(Self.text(answer.payload) == "gh-secret\n")
        guard let json = try fixture.client.get(query, field: .json, vault: fixture.context.vaultPath) else {
            Issue.record("no JSON answer")
            return
        }
        #expect(Self.text(json.payload).contains("\"password\":\"gh-secret\""))
    }

    @Test("a wrong master password is refused with exit 77 and leaves the agent locked")
    func wrongPassword() throws {
        let fixture = try Fixture()
        let reply = try fixture.unlock("wrong")
        guard case .refused(let status, _) = reply else {
            Issue.record("not refused: \(String(describing: reply))")
            return
        }
        #expect(status == .wrongPassword)
        guard case .status(let state) = try fixture.client.request(.status)?.body else {
            Issue.record("no status")
            return
        }
        #expect(state.locked && state.vault == fixture.context.vaultPath)
    }

    @Test("nothing matching is refused with exit 1, thrown to the client as such")
    func noMatch() throws {
        let fixture = try Fixture()
        _ = try fixture.unlock()
        let query = CredentialQuery(services: [try ServiceIdentifier("gitlab.com")])
        let refusal = #expect(throws: AgentRefusal.self) {
            _ = try fixture.client.get(query, field: .password, vault: fixture.context.vaultPath)
        }
        #expect(refusal?.status == .noMatch && refusal.flatMap { ExitStatus($0) } == .noMatch)
    }

    @Test("a request for another vault is declined, so the client unlocks that one itself")
    func anotherVault() throws {
        let fixture = try Fixture()
        _ = try fixture.unlock()
        let query = CredentialQuery(services: [try ServiceIdentifier("github.com")])
        let declined = Self.declined(
            try fixture.client.get(query, field: .password, vault: fixture.root + "/other.pwtui"))
        #expect(declined)
    }

    @Test(
        "a one-time code through the agent like any field: set with VaultAccess, got as --field totp, marked in identities"
    )
    func oneTimeCodeThroughTheAgent() throws {
        let fixture = try Fixture()
        _ = try fixture.unlock()
        let access = try VaultAccess.open(fixture.context)
        let id = try #require(try access.identities().identities.first { $0.services.contains("github.com") }).id
        let key = try SecureBytes(copying: Array("12345678901234567890".utf8))
        let touched = try access.apply(
            .edit(id: id.uuidString, CredentialChange.Edits(totp: .set(.standard))), secret: key)
        #expect(touched.oneTime == .standard)
        guard
            let answer = try fixture.client.get(
                CredentialQuery(id: id.uuidString), field: .totp, vault: fixture.context.vaultPath)
        else {
            Issue.record("the agent did not answer")
            return
        }
        let code = Self.text(answer.payload)
        #expect(code.count == 7 && code.hasSuffix("\n") && code.dropLast().allSatisfy { $0.isNumber }, "\(code)")
        let listed = try #require(try fixture.client.identities(vault: fixture.context.vaultPath))
        #expect(listed.identities.first?.oneTime == .standard, "the picker can mark it")
    }

    @Test("an account's identities come from the agent filtered by username: only that account's travel")
    func identitiesOfOneAccount() throws {
        let fixture = try Fixture()
        _ = try fixture.unlock()
        let access = try VaultAccess.open(fixture.context)
        for (service, username) in [("gitlab.com", "tanuki"), ("gitlab.com", "octocat"), ("codeberg.org", "tanuki")] {
            try access.apply(
                .add(services: [service], username: username, title: "", notes: "", rank: 0),
                secret: try SecureBytes(copying: Array("pw".utf8)))
        }
        let listed = try #require(try fixture.client.identities(vault: fixture.context.vaultPath, username: "octocat"))
        #expect(listed.identities.map(\.username) == ["octocat", "octocat"])
        #expect(Set(listed.identities.flatMap(\.services)) == ["github.com", "gitlab.com"])
        let all = try #require(try fixture.client.identities(vault: fixture.context.vaultPath))
        #expect(all.identities.count == 4)
        #expect(try access.identities(username: "tanuki").identities.count == 2)
        #expect(try access.identities(username: "nobody").identities.isEmpty)
    }

    @Test("add, edit and remove through VaultAccess go to the agent, which saves the file and the identity store")
    func writesThroughTheAgent() throws {
        let fixture = try Fixture()
        _ = try fixture.unlock()
        guard case .agent = try VaultAccess.open(fixture.context) else {
            Issue.record("the unlocked agent was not used")
            return
        }
        let access = try VaultAccess.open(fixture.context)
        let added = try access.apply(
            .add(services: ["gitlab.com"], username: "tanuki", title: "", notes: "", rank: 0),
            secret: try SecureBytes(copying: Array("gl-secret".utf8)))
        try access.apply(
            .edit(id: added.id.uuidString, CredentialChange.Edits(title: "GitLab")), secret: try SecureBytes(zeros: 0))
        let reopened = try Vault.open(
            at: fixture.context.vaultPath, password: try SecureBytes(copying: Array("master".utf8)))
        let saved = try #require(reopened.contents.credential(withID: added.id))
        #expect(saved.title == "GitLab" && saved.username == "tanuki")
        let store = try fixture.context.currentIdentityStore()
        #expect(store.identities.contains { $0.id == added.id && $0.title == "GitLab" })
        #expect(
            store == IdentityStore(vault: reopened) && store.isCurrent(for: reopened.header, at: reopened.version),
            "rebuilt whole after each save")
        guard let found = try access.password(for: CredentialQuery(id: added.id.uuidString)) else {
            Issue.record("the added credential was not found")
            return
        }
        #expect(Self.text(found.password) == "gl-secret")
        try access.apply(.remove(id: added.id.uuidString), secret: try SecureBytes(zeros: 0))
        let gone = try access.password(for: CredentialQuery(services: [try ServiceIdentifier("gitlab.com")]))
        let isGone = Self.absent(gone)
        #expect(isGone)
    }

    @Test("a small vault's adds are made in place one after another, not each on a copy of the vault")
    func addsInPlace() throws {
        let fixture = try Fixture()
        _ = try fixture.unlock()
        let access = try VaultAccess.open(fixture.context)
        let path = fixture.context.vaultPath
        let held = try fixture.service.reading(path) { $0 }
        for index in 0 ..< 20 {
            try access.apply(
                .add(services: ["site\(index).example"], username: "u", title: "", notes: "", rank: 0),
                secret: try SecureBytes(copying: Array("pw".utf8)))
        }
        #expect(try fixture.service.reading(path) { $0 } === held, "the held vault itself was changed")
        let reopened = try Vault.open(at: path, password: try SecureBytes(copying: Array("master".utf8)))
        #expect(reopened.contents.credentials.count == 21)
    }

    @Test("a wildcard over a public suffix is refused by the agent itself (exit 64), whatever the client parsed")
    func agentParsesAgain() throws {
        let fixture = try Fixture()
        _ = try fixture.unlock()
        let reply = try fixture.client.request(
            .write(
                vault: fixture.context.vaultPath,
                change: .add(services: ["*.github.io"], username: "x", title: "", notes: "", rank: 0)),
            payload: try SecureBytes(copying: Array("p".utf8)))?.body
        guard case .refused(let status, let message) = reply else {
            Issue.record("accepted: \(String(describing: reply))")
            return
        }
        #expect(status == .usage && message.contains("public suffix"))
    }

    @Test("the idle lock drops the vault once the timeout passes unused")
    func idleLock() throws {
        let fixture = try Fixture(idleTimeout: .milliseconds(50))
        _ = try fixture.unlock()
        guard case .status(let before) = try fixture.client.request(.status)?.body else {
            Issue.record("no status")
            return
        }
        #expect(!before.locked)
        Thread.sleep(forTimeInterval: 0.1)
        fixture.service.idle()  // what the accept loop does between connections
        guard case .status(let after) = try fixture.client.request(.status)?.body else {
            Issue.record("no status")
            return
        }
        #expect(after.locked)
    }

    @Test("a header that is not a request is refused (74), and the agent goes on serving")
    func malformedHeader() throws {
        let fixture = try Fixture()
        let connection = try #require(fixture.server.connectInProcess())
        defer { connection.descriptor.close() }
        try connection.descriptor.writeAll(Array(#"{"body":{"fetch":{}},"length":0}"#.utf8) + [0x0A])
        let reply = try connection.receive(AgentReply.self)
        guard case .refused(let status, let message) = reply.body else {
            Issue.record("not refused: \(reply.body)")
            return
        }
        #expect(status == .ioError && message.contains("agent protocol"))
        let stillServing = !Self.declined(try fixture.client.request(.status))
        #expect(stillServing)
    }

    @Test(
        "an agent of another version (its reply unreadable) is passed over: ask answers nil, so the caller unlocks itself"
    )
    func anotherVersionIsPassedOver() throws {
        // What the agent before the typed protocol answered to anything: an untyped header.
        let client = AgentClient(connect: {
            guard let (mine, theirs) = try? UnixSocket.pair() else { return nil }
            Thread.detachNewThread {
                var request = [UInt8](repeating: 0, count: 4096)
                _ = try? request.withUnsafeMutableBytes { try theirs.readSome(into: $0, before: .after(.seconds(2))) }
                try? theirs.writeAll(
                    Array(#"{"code":74,"length":0,"message":"agent protocol: unknown operation","ok":false}"#.utf8) + [
                        0x0A
                    ])
                theirs.close()
            }
            return AgentConnection(mine, timeout: .seconds(2))
        })
        let query = CredentialQuery(services: [try ServiceIdentifier("github.com")])
        let declined = Self.declined(try client.get(query, field: .password, vault: "/any"))
        #expect(declined)
        #expect(throws: AgentError.self) { _ = try client.request(.status) }
    }
}
