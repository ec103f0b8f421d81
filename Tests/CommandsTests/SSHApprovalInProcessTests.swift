// Approval of SSH signatures in one process (issue 27): the keys' policies (never, each,
// session until lock), what the question shows, that the agent's turn is free while the user is
// asked, and the agent while locked (listing from the identity store, the master password asked
// for a signature). The user is a stand-in prompter; the requesting programs come from the
// context's `processChain` seam.

import Foundation
import Platform
import PwtuiTestSupport
@testable import SSHKeys
@testable import Commands
import Testing
import VaultAgent
import VaultCrypto
import VaultModel

@Suite("SSH approval, in process")
struct SSHApprovalInProcessTests {
    /// The user, scripted: answers in order (then no), records every question, and can hold a
    /// question open until `release()`.
    final class Prompter: SSHApprovalPrompter, @unchecked Sendable {
        private let lock = Lock()
        private var answers: [SSHApprovalAnswer]
        private var passwords: [String]
        private var asked: [SSHApprovalQuestion] = []
        private var askedForPassword: [SSHApprovalQuestion] = []
        private let holding: Bool
        private var released = false

        init(answers: [SSHApprovalAnswer] = [], passwords: [String] = [], holding: Bool = false) {
            self.answers = answers
            self.passwords = passwords
            self.holding = holding
        }

        var questions: [SSHApprovalQuestion] { lock.withLock { asked } }
        var passwordQuestions: [SSHApprovalQuestion] { lock.withLock { askedForPassword } }
        func release() { lock.withLock { released = true } }

        /// Run when a question is asked (a requester that changes meanwhile).
        var onQuestion: @Sendable () -> Void = {}

        func approve(_ question: SSHApprovalQuestion) -> SSHApprovalAnswer {
            lock.withLock { asked.append(question) }
            onQuestion()
            while holding, !lock.withLock({ released }) { CurrentProcess.sleep(for: .milliseconds(5)) }
            return lock.withLock { answers.isEmpty ? .no : answers.removeFirst() }
        }

        func masterPassword(for question: SSHApprovalQuestion) -> SecureBytes? {
            let next: String? = lock.withLock {
                askedForPassword.append(question)
                return passwords.isEmpty ? nil : passwords.removeFirst()
            }
            return next.flatMap { try? SecureBytes(copying: Array($0.utf8)) }
        }
    }

    /// A flag set from another closure.
    final class LockedFlag: @unchecked Sendable {
        private let lock = Lock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }

    /// Pids 100 and 200 are two programs, ssh (run by git, run by bash) and a script's python.
    static let programs: @Sendable (Int32) -> ProcessChain = { pid in
        func member(_ id: Int32, _ path: String, _ arguments: [String]) -> ProcessChain.Member {
            ProcessChain.Member(
                id: id, name: ProcessChain.fileName(path), executable: path, commandLine: arguments)
        }
        if pid == 200 {
            return ProcessChain(members: [member(200, "/usr/bin/python3", ["python3", "steal.py"])])
        }
        return ProcessChain(members: [
            member(pid, "/usr/bin/ssh", ["ssh", "git@example.org", "\u{1B}]2;pwned\u{07}"]),
            member(pid + 1, "/usr/bin/git", ["git", "push"]), member(pid + 2, "/usr/bin/bash", ["bash"]),
        ])
    }

    /// An unlocked agent with one key of `policy`, its blob, and the stand-in user.
    static func agent(_ policy: SSHKeyItem.ConfirmPolicy, _ prompter: Prompter) throws -> (
        AgentInProcessTests.Fixture, [UInt8]
    ) {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        fixture.context.processChain = programs
        // The made-up pids below stand for processes that have not changed since they connected.
        fixture.context.peerIsUnchanged = { _ in true }
        fixture.context.sshPrompter = prompter
        try GenerateSSHKey(title: "deploy key", hosts: ["github.com"], confirm: policy).run(in: fixture.context)
        let blob = try #require(fixture.service.sshIdentities(for: SSHAgentConnection(peer: nil)).first).keyBlob
        return (fixture, blob)
    }

    /// A peer of a made-up pid (`programs` names its chain; the context takes it as unchanged).
    static func madeUp(_ pid: Int32) -> PeerProcess {
        PeerProcess(id: pid, started: 1, command: "ssh", executable: nil)
    }

    /// A made-up host key for `host` (an Ed25519 blob of its name's digest).
    static func hostKey(_ host: String) -> [UInt8] {
        SSHWire.ed25519KeyBlob(SHA256.hash(Array(host.utf8)))
    }

    /// Signs "data" with `blob` for `peer`, on a connection bound to `destination`'s host key
    /// when given (as `session-bind@openssh.com` binds it).
    static func sign(
        _ fixture: AgentInProcessTests.Fixture, _ blob: [UInt8], peer: Int32 = 100, destination: String? = nil
    ) -> Bool {
        let bindings = destination.map {
            [SSHAgentConnection.Binding(hostKey: hostKey($0), sessionID: [1], isForwarding: false)]
        }
        let request = SSHSignRequest(
            keyBlob: blob, data: Array("data".utf8), flags: 0,
            connection: SSHAgentConnection(peer: madeUp(peer), bindings: bindings ?? []))
        return fixture.service.sshSign(request) != nil
    }

    @Test(
        "a requester that exec'd another program since it connected: no session approval reused, nothing asked, refused"
    )
    func changedRequester() throws {
        let user = Prompter(answers: [.yes, .yes])
        let (fixture, blob) = try Self.agent(.session, user)
        #expect(Self.sign(fixture, blob), "ssh, approved for the session")
        #expect(user.questions.count == 1)
        // The process that connected has exec'd ssh since (its child sends the request): /proc
        // names ssh, whose approval stands, but it is not the process that connected.
        fixture.context.peerIsUnchanged = { _ in false }
        #expect(!Self.sign(fixture, blob), "refused")
        #expect(user.questions.count == 1, "and nobody asked")
        // One that changes while the question is open is refused after the yes.
        let (each, eachBlob) = try Self.agent(.each, user)
        let changed = LockedFlag()
        each.context.peerIsUnchanged = { _ in !changed.isSet }
        user.onQuestion = { changed.set() }
        #expect(!Self.sign(each, eachBlob), "changed during the question")
        #expect(user.questions.count == 2)
    }

    @Test("never signs unasked; each asks every time; a no refuses")
    func neverAndEach() throws {
        let quiet = Prompter()
        let (never, neverBlob) = try Self.agent(.never, quiet)
        #expect(Self.sign(never, neverBlob) && Self.sign(never, neverBlob))
        #expect(quiet.questions.isEmpty)

        let user = Prompter(answers: [.yes, .yes, .no])
        let (each, blob) = try Self.agent(.each, user)
        #expect(Self.sign(each, blob))
        #expect(Self.sign(each, blob))
        #expect(!Self.sign(each, blob), "the third was answered no")
        #expect(user.questions.count == 3)
    }

    @Test("session asks once per program, destination and key; a no is not remembered; a lock forgets")
    func session() throws {
        let user = Prompter(answers: [.no, .yes, .yes, .yes, .yes])
        let (fixture, blob) = try Self.agent(.session, user)
        #expect(!Self.sign(fixture, blob), "no")
        #expect(Self.sign(fixture, blob), "asked again after the no, and yes")
        #expect(Self.sign(fixture, blob), "remembered")
        #expect(Self.sign(fixture, blob, peer: 300), "another ssh process: the same program, remembered")
        #expect(user.questions.count == 2)
        #expect(Self.sign(fixture, blob, peer: 200), "another program: asked")
        #expect(user.questions.count == 3)
        #expect(Self.sign(fixture, blob, destination: "github.com"), "another destination: asked")
        #expect(Self.sign(fixture, blob, destination: "github.com"))
        #expect(user.questions.count == 4)
        // A host key no known_hosts names: shown by its fingerprint.
        #expect(
            user.questions.last?.destination == "an unknown host (\(SSHFingerprint.of(Self.hostKey("github.com"))))")

        _ = try fixture.client.request(.lock)
        _ = try fixture.unlock()
        #expect(Self.sign(fixture, blob), "after a lock: asked again")
        #expect(user.questions.count == 5)
        // The idle lock forgets as well.
        fixture.service.stop(within: .seconds(1))
        _ = try fixture.unlock()
        #expect(!Self.sign(fixture, blob), "asked again, and the answers are used up: no")
        #expect(user.questions.count == 6)
    }

    @Test("no turn is held while the user is asked: reads and writes are answered; a lock meanwhile voids the yes")
    func turnNotHeld() throws {
        let user = Prompter(answers: [.yes, .yes], holding: true)
        let (made, blob) = try Self.agent(.each, user)
        nonisolated(unsafe) let fixture = made
        let signed = Lock()
        nonisolated(unsafe) var result: Bool?
        let thread = Thread {
            let ok = Self.sign(fixture, blob)
            signed.withLock { result = ok }
        }
        thread.start()
        #expect(Self.poll(timeout: .seconds(5)) { user.questions.count == 1 })
        // Asked, and waiting for the user: a read and a write are served meanwhile.
        #expect(fixture.service.sshIdentities(for: SSHAgentConnection(peer: nil)).count == 1)
        var nothing = try SecureBytes(zeros: 0)
        let write = fixture.service.handle(
            .write(vault: fixture.context.vaultPath, change: .remove(id: UUID().uuidString)), payload: &nothing)
        if case .refused(let status, _) = write.reply { #expect(status == .noMatch, "answered, not held") }
        user.release()
        #expect(Self.poll(timeout: .seconds(5)) { signed.withLock { result } != nil })
        #expect(signed.withLock { result } == true)

        // The agent locks (and unlocks again) while the question is open: the yes signs nothing.
        let second = Prompter(answers: [.yes], holding: true)
        fixture.context.sshPrompter = second
        let thread2 = Thread {
            let ok = Self.sign(fixture, blob)
            signed.withLock { result = ok }
        }
        signed.withLock { result = nil }
        thread2.start()
        #expect(Self.poll(timeout: .seconds(5)) { second.questions.count == 1 })
        var none = try SecureBytes(zeros: 0)
        _ = fixture.service.handle(.lock, payload: &none)
        _ = try fixture.unlock()
        second.release()
        #expect(Self.poll(timeout: .seconds(5)) { signed.withLock { result } != nil })
        #expect(signed.withLock { result } == false)
    }

    /// Whether `condition` holds within `timeout`, asked every 5 ms.
    static func poll(timeout: Duration, _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            CurrentProcess.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    @Test("the question names the program, its command line made printable, its parents, the key and its fingerprint")
    func question() throws {
        let user = Prompter(answers: [.yes])
        let (fixture, blob) = try Self.agent(.each, user)
        // The destination named as the user's known_hosts names its host key.
        let ssh = fixture.root + "/.ssh"
        try FileManager.default.createDirectory(atPath: ssh, withIntermediateDirectories: true)
        try "github.com ssh-ed25519 \(Data(Self.hostKey("github.com")).base64EncodedString())\n".write(
            toFile: ssh + "/known_hosts", atomically: true, encoding: .utf8)
        #expect(Self.sign(fixture, blob, destination: "github.com"))
        // The key is bound to github.com: for another known host it is refused unasked.
        try "example.org ssh-ed25519 \(Data(Self.hostKey("example.org")).base64EncodedString())\n".write(
            toFile: ssh + "/known_hosts2", atomically: true, encoding: .utf8)
        #expect(!Self.sign(fixture, blob, destination: "example.org"))
        #expect(user.questions.count == 1)
        let question = try #require(user.questions.first)
        #expect(question.requester.executable == "/usr/bin/ssh")
        #expect(question.requester.chain == "ssh ← git ← bash")
        #expect(question.keyTitle == "deploy key")
        let digest = Data(SHA256.hash(blob)).base64EncodedString().replacingOccurrences(of: "=", with: "")
        #expect(question.fingerprint == "SHA256:" + digest)
        let text = question.text
        #expect(!text.contains("\u{1B}") && !text.contains("\u{07}"), "\(text)")
        #expect(text.contains("ssh git@example.org \\e]2;pwned\\u{07}"), "\(text)")
        for part in ["/usr/bin/ssh", "ssh ← git ← bash", "deploy key", question.fingerprint, "for host: github.com"] {
            #expect(text.contains(part), "\(part) in \(text)")
        }
    }

    @Test("locked: keys listed from the identity store; a signature asks the master password, unlocks and signs")
    func locked() throws {
        let user = Prompter(passwords: ["wrong", "also wrong", "wrong again", "master"])
        let (fixture, blob) = try Self.agent(.session, user)
        // A second key, with hosts, bound to git: listed while unlocked (to git), not while locked.
        try GenerateSSHKey(title: "bound key", hosts: ["example.org", "10.0.0.2"], confirm: .never).run(
            in: fixture.context)
        let bound = try #require(
            try Vault.open(at: fixture.context.vaultPath, password: try secure("master")).contents.credentials.first {
                $0.title == "bound key"
            })
        var edits = CredentialChange.Edits()
        edits.allowPrograms = ["git"]
        try EditCredential(id: bound.id.uuidString, edits: edits, generate: false).run(in: fixture.context)
        #expect(
            fixture.service.sshIdentities(for: SSHAgentConnection(peer: Self.madeUp(100))).count == 2,
            "ssh run by git sees both")
        let store = try fixture.context.currentIdentityStore()
        #expect(store.sshKeys.map(\.title) == ["deploy key"], "a key bound to programs is not in the store")
        #expect(store.sshKeys.first?.keyBlob == blob)
        #expect(store.sshKeys.first?.hosts == ["github.com"], "its hosts, for host binding while locked")

        _ = try fixture.client.request(.lock)
        #expect(fixture.service.sshIdentities(for: SSHAgentConnection(peer: nil)).map(\.keyBlob) == [blob])
        #expect(fixture.service.sshIdentities(for: SSHAgentConnection(peer: nil)).map(\.comment) == ["deploy key"])

        #expect(!Self.sign(fixture, blob), "a wrong master password, twice")
        #expect(!fixture.service.isUnlocked, "stays locked")
        #expect(user.passwordQuestions.map(\.wrongPassword) == [false, true], "asked once more after the first")
        #expect(Self.sign(fixture, blob), "wrong, then right")
        #expect(fixture.service.isUnlocked)
        #expect(user.passwordQuestions.count == 4)
        #expect(user.passwordQuestions.last?.locked == true)
        #expect(user.passwordQuestions.last?.requester.chain == "ssh ← git ← bash")
        #expect(Self.sign(fixture, blob), "the session key's approval was remembered")
        #expect(user.questions.isEmpty)

        // A key the store does not know is refused unasked.
        _ = try fixture.client.request(.lock)
        var other = blob
        other[other.count - 1] ^= 1
        #expect(!Self.sign(fixture, other))
        #expect(user.passwordQuestions.count == 4)
    }

    @Test("locked, a bound connection is offered the store's keys for its host first, and none bound elsewhere")
    func lockedByHost() throws {
        let (fixture, github) = try Self.agent(.never, Prompter())
        try GenerateSSHKey(title: "example key", hosts: ["example.org"], confirm: .never).run(in: fixture.context)
        try GenerateSSHKey(title: "any host", hosts: [], confirm: .never).run(in: fixture.context)
        let ssh = fixture.root + "/.ssh"
        try FileManager.default.createDirectory(atPath: ssh, withIntermediateDirectories: true)
        try "example.org ssh-ed25519 \(Data(Self.hostKey("example.org")).base64EncodedString())\n".write(
            toFile: ssh + "/known_hosts", atomically: true, encoding: .utf8)
        let bound = SSHAgentConnection(
            peer: Self.madeUp(100),
            bindings: [.init(hostKey: Self.hostKey("example.org"), sessionID: [1], isForwarding: false)])
        let unlocked = fixture.service.sshIdentities(for: bound).map(\.comment)
        #expect(unlocked == ["example key", "any host"])
        _ = try fixture.client.request(.lock)
        #expect(fixture.service.sshIdentities(for: bound).map(\.comment) == unlocked, "the same while locked")
        #expect(
            fixture.service.sshIdentities(for: SSHAgentConnection(peer: Self.madeUp(100))).map(\.keyBlob).first
                == github,
            "not bound: every key, in the vault's order")
    }

    @Test("a terminal's device number from /proc/PID/stat: /dev/pts/N, /dev/ttyN, none")
    func terminalNumbers() throws {
        #expect(ProcessTerminal.path(ofDevice: 136 << 8 | 5) == "/dev/pts/5")
        #expect(ProcessTerminal.path(ofDevice: 136 << 8 | 44 | 256 << 12) == "/dev/pts/300")
        #expect(ProcessTerminal.path(ofDevice: 4 << 8 | 2) == "/dev/tty2")
        #expect(ProcessTerminal.path(ofDevice: 0) == nil)
        #expect(ProcessTerminal.path(ofDevice: 4 << 8 | 64) == nil, "a serial line")
        let root = NSTemporaryDirectory() + "pwtui-proc-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/42", withIntermediateDirectories: true)
        // A command name with a space and a ')' in it.
        try "42 (evil) 1 2) S 1 42 40 \(136 << 8 | 7) 42 0\n".write(
            toFile: root + "/42/stat", atomically: true, encoding: .utf8)
        let state = try #require(ProcessTerminal.of(42, procRoot: root))
        #expect(state.session == 40 && state.terminal == "/dev/pts/7")
    }

    @Test("no terminal on the requester's chain: nobody is asked, the signature is refused")
    func noTerminal() throws {
        let root = NSTemporaryDirectory() + "pwtui-proc-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/100", withIntermediateDirectories: true)
        try "100 (ssh) S 1 100 100 0 100 0\n".write(toFile: root + "/100/stat", atomically: true, encoding: .utf8)
        let prompter = SSHRequesterTerminal(procRoot: root)
        let question = SSHApprovalQuestion(
            requester: SSHSignRequester(Self.programs(100)), keyTitle: "k", fingerprint: "SHA256:x",
            destination: nil, locked: false)
        #expect(prompter.approve(question) == .nowhereToAsk)
        switch prompter.masterPassword(for: question) {
        case .some: Issue.record("a password was read with no terminal")
        case .none: break
        }

        let (fixture, blob) = try Self.agent(.each, Prompter())
        fixture.context.sshPrompter = prompter
        #expect(!Self.sign(fixture, blob))
    }
}
