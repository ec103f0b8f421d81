// The Secret Service's items in the agent (issue 40), in one process: who is taken to be the
// reader (the bus client only through the trusted relay; a script that names Chromium's pid is
// itself), the policies that ask before a read, and a locked agent's unlock asked of the user.
// The user is `SSHApprovalInProcessTests.Prompter`; the programs come from `processChain`.

import Foundation
import Platform
import PwtuiTestSupport
@testable import Commands
import Testing
import VaultAgent
import VaultCrypto
import VaultModel

@Suite("Keyring items in the agent, in process")
struct KeyringAgentInProcessTests {
    typealias Prompter = SSHApprovalInProcessTests.Prompter

    /// 300: the relay beside this test's own executable (as pwtui-secret-service is beside the
    /// agent's); 301: a program of that name elsewhere; 400: Chromium; 500: a script's python3.
    static let programs: @Sendable (Int32) -> ProcessChain = { pid in
        let own = CurrentProcess.executablePath
        let beside = String(own[..<(own.lastIndex(of: "/") ?? own.startIndex)]) + "/pwtui-secret-service"
        if pid == 600 {
            // A process whose executable could not be read: only its argv[0] says "chromium".
            return ProcessChain(members: [
                ProcessChain.Member(
                    id: 600, name: "chromium", executable: nil, commandLine: ["chromium"], isVerified: false)
            ])
        }
        let path =
            switch pid {
            case 300: beside
            case 301: "/tmp/evil/pwtui-secret-service"
            case 400: "/usr/lib/chromium/chromium"
            default: "/usr/bin/python3"
            }
        return ProcessChain(members: [
            ProcessChain.Member(id: pid, name: ProcessChain.fileName(path), executable: path, commandLine: [path])
        ])
    }

    static func peer(_ pid: Int32) -> PeerProcess {
        PeerProcess(id: pid, started: 1, command: "x", executable: nil)
    }

    /// An unlocked agent, the stand-in user, and an item Chromium stored through the relay.
    static func agent(_ prompter: Prompter, policy: KeyringItem.ConfirmPolicy? = nil) throws -> (
        AgentInProcessTests.Fixture, String
    ) {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        fixture.context.processChain = programs
        fixture.context.peerIsUnchanged = { _ in true }
        fixture.context.sshPrompter = prompter
        let create = KeyringRequest.create(
            label: "Chromium Safe Storage", attributes: ["application": "chromium"], contentType: "text/plain",
            replace: false, creator: KeyringCaller(pid: 400))
        let created = ask(fixture, create, from: 300, payload: "cookie-key")
        guard case .keyring(.created(let id, false, _)) = created.body else {
            throw VaultError.invalidRequest("not created: \(created.body)")
        }
        if let policy {
            var edits = CredentialChange.Edits()
            edits.textFields = [.init(name: KeyringItem.confirmField, text: policy.rawValue)]
            let uuid = try #require(KeyringItem.credentialID(id))
            var none = try SecureBytes(zeros: 0)
            let answer = fixture.service.handle(
                .write(vault: fixture.context.vaultPath, change: .edit(id: uuid, edits)), payload: &none, peer: nil,
                limit: .none)
            guard case .identity = answer.reply else { throw VaultError.invalidRequest("\(answer.reply)") }
        }
        return (fixture, id)
    }

    struct Answer {
        let body: AgentReply
        let payload: String
    }

    static func ask(
        _ fixture: AgentInProcessTests.Fixture, _ request: KeyringRequest, from pid: Int32, payload: String = ""
    ) -> Answer {
        var bytes = (try? SecureBytes(copying: Array(payload.utf8))) ?? { fatalError("no protected memory") }()
        var answer = fixture.service.handle(
            .keyring(vault: fixture.context.vaultPath, request: request), payload: &bytes, peer: peer(pid),
            limit: .none)
        var text = ""
        if let payload = answer.payload.take() {
            text = payload.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        }
        return Answer(body: answer.reply, payload: text)
    }

    static func read(_ fixture: AgentInProcessTests.Fixture, _ id: String, via relay: Int32 = 300, as reader: Int32)
        -> Answer
    {
        ask(fixture, .secret(id: id, reader: KeyringCaller(pid: reader), asking: true), from: relay)
    }

    @Test("the relay beside the agent names the bus client: Chromium is the item's creator, and reads it unasked")
    func creatorThroughTheRelay() throws {
        let prompter = Prompter()
        let (fixture, id) = try Self.agent(prompter, policy: .other)
        let item = try #require(
            try Vault.open(at: fixture.context.vaultPath, password: try secure("master")).contents.credentials.first {
                $0.kind == .keyring
            })
        #expect(KeyringItem.creator(of: item) == "chromium")
        let read = Self.read(fixture, id, as: 400)
        #expect(read.body == .keyring(.secret(contentType: "text/plain")) && read.payload == "cookie-key")
        #expect(prompter.questions.isEmpty)
    }

    @Test("policy other: another program is asked about; the user's no refuses it, a yes gives it")
    func otherProgramsAsked() throws {
        let prompter = Prompter(answers: [.no, .yes])
        let (fixture, id) = try Self.agent(prompter, policy: .other)
        let refused = Self.read(fixture, id, as: 500)
        guard case .refused(let status, let message) = refused.body else {
            Issue.record("given: \(refused.body)")
            return
        }
        #expect(status == .noMatch && KeyringItem.isRefusal(message) && refused.payload.isEmpty, "\(message)")
        let question = try #require(prompter.questions.first)
        #expect(question.text.contains("python3 asks to read \"Chromium Safe Storage\" from your keyring"))
        #expect(question.text.contains("stored by: chromium"))
        let given = Self.read(fixture, id, as: 500)
        #expect(given.payload == "cookie-key" && prompter.questions.count == 2)
    }

    @Test(
        "a read that would ask, asked not to ask (the relay's first try on its bus's thread), is answered mustAsk at once; one that needs no question is given"
    )
    func notAsking() throws {
        let prompter = Prompter(answers: [.yes])
        let (fixture, id) = try Self.agent(prompter, policy: .other)
        let unasked = Self.ask(fixture, .secret(id: id, reader: KeyringCaller(pid: 500), asking: false), from: 300)
        #expect(unasked.body == .keyring(.mustAsk) && unasked.payload.isEmpty && prompter.questions.isEmpty)
        let creator = Self.ask(fixture, .secret(id: id, reader: KeyringCaller(pid: 400), asking: false), from: 300)
        #expect(creator.payload == "cookie-key" && prompter.questions.isEmpty)
        #expect(Self.read(fixture, id, as: 500).payload == "cookie-key" && prompter.questions.count == 1)
    }

    @Test("a script that names Chromium's pid is itself, not Chromium; so is a relay of that name elsewhere")
    func noOneElsePassesForTheClient() throws {
        let prompter = Prompter()
        let (fixture, id) = try Self.agent(prompter, policy: .other)
        for impostor: Int32 in [500, 301] {
            let read = Self.read(fixture, id, via: impostor, as: 400)
            guard case .refused = read.body else {
                Issue.record("given to \(impostor): \(read.body)")
                continue
            }
        }
        #expect(prompter.questions.map(\.requester.name) == ["python3", "pwtui-secret-service"])
        // And a script's create is the script's: its items are not Chromium's.
        let made = Self.ask(
            fixture,
            .create(
                label: "fake", attributes: [:], contentType: "text/plain", replace: false,
                creator: KeyringCaller(pid: 400)),
            from: 500, payload: "x")
        guard case .keyring(.created(let fake, _, _)) = made.body else {
            Issue.record("\(made.body)")
            return
        }
        let vault = try Vault.open(at: fixture.context.vaultPath, password: try secure("master"))
        #expect(KeyringItem.creator(of: try KeyringRequest.item(fake, in: vault)) == "python3")
    }

    @Test("policy each asks even the creator; never (the default) asks nobody")
    func eachAndNever() throws {
        let asking = Prompter(answers: [.yes])
        let (each, id) = try Self.agent(asking, policy: .each)
        #expect(Self.read(each, id, as: 400).payload == "cookie-key" && asking.questions.count == 1)
        let silent = Prompter()
        let (never, other) = try Self.agent(silent)
        #expect(Self.read(never, other, as: 500).payload == "cookie-key" && silent.questions.isEmpty)
    }

    @Test(
        "locked: an unlock asks the master password where the client is (once more after a wrong one); nobody to ask leaves it locked"
    )
    func lockedUnlock() throws {
        let prompter = Prompter(passwords: ["wrong", "master"])
        let (fixture, id) = try Self.agent(prompter)
        _ = try fixture.client.request(.lock)
        let locked = Self.read(fixture, id, as: 400)
        guard case .refused(let status, _) = locked.body else {
            Issue.record("read while locked: \(locked.body)")
            return
        }
        #expect(status == .interactionRequired && locked.payload.isEmpty)
        // Locked, a search still finds it, locked, from the identity store's attribute digests
        // (what libsecret unlocks): by its label, never its attributes; another pair finds nothing.
        let found = Self.ask(fixture, .search(attributes: ["application": "chromium"]), from: 300)
        guard case .keyring(.items(let items, locked: true)) = found.body else {
            Issue.record("a locked search: \(found.body)")
            return
        }
        #expect(
            items.map(\.id) == [id] && items.first?.label == "Chromium Safe Storage" && items.first?.attributes == [:])
        let none = Self.ask(fixture, .search(attributes: ["application": "firefox"]), from: 300)
        #expect(none.body == .keyring(.items([], locked: true)))
        let described = Self.ask(fixture, .describe(id: id), from: 300)
        #expect(described.body == .keyring(.items(items, locked: true)))
        let unlocked = Self.ask(fixture, .unlock(reader: KeyringCaller(pid: 400)), from: 300)
        #expect(unlocked.body == .keyring(.done))
        #expect(prompter.passwordQuestions.count == 2 && prompter.passwordQuestions.last?.wrongPassword == true)
        #expect(prompter.passwordQuestions.first?.text.contains("chromium asks the keyring") == true)
        #expect(Self.read(fixture, id, as: 400).payload == "cookie-key")

        _ = try fixture.client.request(.lock)
        let nobody = Self.ask(fixture, .unlock(reader: KeyringCaller(pid: 400)), from: 300)
        guard case .refused(let refusal, _) = nobody.body else {
            Issue.record("unlocked with nobody to ask: \(nobody.body)")
            return
        }
        #expect(refusal == .interactionRequired)
    }

    @Test(
        "the collection's state without a listing: unlocked with its oldest and newest item's times, locked with none"
    )
    func collectionState() throws {
        let (fixture, _) = try Self.agent(Prompter())
        let item = try #require(
            try Vault.open(at: fixture.context.vaultPath, password: try secure("master")).contents.credentials.first {
                $0.kind == .keyring
            })
        let unlocked = Self.ask(fixture, .collection(times: true), from: 300)
        #expect(
            unlocked.body
                == .keyring(
                    .collection(
                        locked: false, created: item.created.millisecondsSince1970,
                        modified: item.modified.millisecondsSince1970)))
        let lockedOnly = Self.ask(fixture, .collection(times: false), from: 300)
        #expect(lockedOnly.body == .keyring(.collection(locked: false, created: 0, modified: 0)), "no pass for times")
        _ = try fixture.client.request(.lock)
        guard case .refused(let status, _) = Self.ask(fixture, .collection(times: false), from: 300).body else {
            Issue.record("a locked agent described its collection")
            return
        }
        #expect(status == .interactionRequired, "the relay shows it locked")
    }

    @Test(
        "a create reads the relay's and the creator's own process only; a read that asks reads the reader's whole chain"
    )
    func processesRead() throws {
        let prompter = Prompter(answers: [.yes])
        let (fixture, id) = try Self.agent(prompter, policy: .other)
        let depths = ChainsRead()
        fixture.context.processChainUpTo = { pid, depth in
            depths.add(pid, depth)
            return Self.programs(pid)
        }
        let created = Self.ask(
            fixture,
            .create(
                label: "Another", attributes: ["application": "other"], contentType: "text/plain", replace: false,
                creator: KeyringCaller(pid: 400)), from: 300, payload: "x")
        guard case .keyring(.created) = created.body else {
            Issue.record("not created: \(created.body)")
            return
        }
        #expect(depths.take() == [.init(pid: 300, depth: 1), .init(pid: 400, depth: 1)])
        #expect(Self.read(fixture, id, as: 500).payload == "cookie-key")
        #expect(depths.take() == [.init(pid: 300, depth: 1), .init(pid: 500, depth: ProcessChain.maximumDepth)])
    }

    /// The chains a test's agent read, and how deep.
    final class ChainsRead: @unchecked Sendable {
        struct Read: Equatable {
            let pid: Int32
            let depth: Int
        }
        private let lock = Lock()
        private var reads: [Read] = []
        func add(_ pid: Int32, _ depth: Int) { lock.withLock { reads.append(Read(pid: pid, depth: depth)) } }
        func take() -> [Read] {
            lock.withLock {
                defer { reads = [] }
                return reads
            }
        }
    }

    @Test("a reader whose executable cannot be read is no program's: never the creator, so policy other asks it")
    func unverifiedReaders() throws {
        let prompter = Prompter()
        let (fixture, id) = try Self.agent(prompter, policy: .other)
        let refused = Self.read(fixture, id, as: 600)
        guard case .refused = refused.body else {
            Issue.record("given to an unverified chromium: \(refused.body)")
            return
        }
        #expect(prompter.questions.count == 1)
        // And what it stores records no creator, so nobody reads it unasked as its creator.
        let made = Self.ask(
            fixture,
            .create(
                label: "x", attributes: [:], contentType: "text/plain", replace: false, creator: KeyringCaller(pid: 600)
            ),
            from: 300, payload: "y")
        guard case .keyring(.created(let item, _, _)) = made.body else {
            Issue.record("\(made.body)")
            return
        }
        let vault = try Vault.open(at: fixture.context.vaultPath, password: try secure("master"))
        #expect(KeyringItem.creator(of: try KeyringRequest.item(item, in: vault)) == nil)
    }
}
