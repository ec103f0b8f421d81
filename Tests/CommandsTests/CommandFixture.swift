import Foundation
import Platform
@testable import Commands
import PwtuiTestSupport
import ServiceMatching
import TUI
import TUITestDoubles
import VaultCrypto
import VaultModel

/// A command's world in process: a home of its own (settings, state, runtime directory), a vault
/// made with the cheapest key derivation and saved as `init` saves it, and no agent. Each `run`
/// is one command, as one process would run it: a context of its own (nothing it caches, such as
/// the settings, outlives it) and fresh `RecordedStreams`, whose output and messages the test
/// reads. The master password, when a command asks, is typed at a `ScriptedPrompt`.
final class CommandFixture {
    static let password = "correct horse battery staple"

    let root: String
    /// The environment every later `run` sees (a test may change a variable for the commands after).
    var environment: Platform.Environment
    /// The last command's context (the first: the one that created the vault).
    private(set) var context: CommandContext
    /// Who asks, for credentials bound to programs (`CommandContext.processChain`); nil: this
    /// test process's real chain.
    var askingChain: ProcessChain?

    /// `logins`: (service, username, password, title) added before the first save.
    init(_ logins: [(service: String, username: String, secret: String, title: String)] = [], settings: String? = nil)
        throws
    {
        root = NSTemporaryDirectory() + "pwtui-command-" + UUID().uuidString
        try FileManager.default.createDirectory(
            atPath: root + "/config/pwtui", withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        environment = Platform.Environment([
            "HOME": root, "XDG_CONFIG_HOME": root + "/config", "XDG_DATA_HOME": root + "/data",
            "XDG_STATE_HOME": root + "/state", "XDG_RUNTIME_DIR": root + "/run",
            "PATH": "/usr/local/bin:/usr/bin:/bin", "NO_COLOR": "1",
        ])
        if let settings {
            try settings.write(toFile: root + "/config/pwtui/config.toml", atomically: true, encoding: .utf8)
        }
        context = CommandContext(vault: root + "/vault/vault.pwtui", environment: environment)
        let vault = try Vault.createCheaply(at: context.vaultPath, password: Self.password)
        for login in logins {
            try vault.add(
                services: login.service.isEmpty ? [] : [try ServiceIdentifier(login.service)], username: login.username,
                secret: try SecureBytes(copying: login.secret.utf8), title: login.title)
        }
        try context.save(vault)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Runs `body` with fresh streams. `typing`: the terminal's prompt answers these, in order
    /// (nil: no terminal at all); `input`: stdin; `passwordOnDescriptor`: the master password
    /// on a pipe, as `--master-password-fd N` gives it (then no terminal is needed to unlock).
    @discardableResult
    func run(
        input: String = "", typing answers: [ScriptedPrompt.Answer]? = nil, inputIsTerminal: Bool = false,
        answerIsTerminal: Bool = false, device: String? = nil, screen: GridTerminal? = nil,
        passwordOnDescriptor: Bool = false,
        _ body: (CommandContext) throws -> Void
    ) throws -> RecordedStreams {
        let recorded = try RecordedStreams(
            input: input, inputIsTerminal: inputIsTerminal, answerIsTerminal: answerIsTerminal,
            screen: screen, prompt: answers.map { ScriptedPrompt($0) }, device: device)
        let descriptor = try newContext(recorded, passwordOnDescriptor: passwordOnDescriptor)
        defer { descriptor?.close() }
        try body(context)
        return recorded
    }

    /// The next command's context; the descriptor of the master password's pipe, when it has one.
    private func newContext(_ recorded: RecordedStreams, passwordOnDescriptor: Bool) throws -> FileDescriptor? {
        var descriptor: FileDescriptor?
        if passwordOnDescriptor {
            let pipe = try FileDescriptor.pipe()
            try pipe.writing.writeAll(Self.password + "\n")
            pipe.writing.close()
            descriptor = pipe.reading
        }
        context = CommandContext(
            vault: context.vaultPath, masterPasswordFD: descriptor?.rawValue, environment: environment,
            streams: recorded.streams)
        if let askingChain { context.processChain = { _ in askingChain } }
        return descriptor
    }

    /// The command's failure, with what it had printed and said by then (`run`'s, caught).
    func failure(
        input: String = "", typing answers: [ScriptedPrompt.Answer]? = nil, answerIsTerminal: Bool = false,
        screen: GridTerminal? = nil, passwordOnDescriptor: Bool = false,
        _ body: (CommandContext) throws -> Void
    ) throws -> (failure: CommandFailure?, streams: RecordedStreams) {
        var caught: CommandFailure?
        let recorded = try run(
            input: input, typing: answers, answerIsTerminal: answerIsTerminal, screen: screen,
            passwordOnDescriptor: passwordOnDescriptor
        ) { context in
            do {
                try body(context)
            } catch let failure as CommandFailure {
                caught = failure
            } catch {
                caught = CommandFailure(ExitStatus(error), "\(error)")
            }
        }
        return (caught, recorded)
    }

    /// The vault as saved, opened here.
    func vault(password: String = CommandFixture.password) throws -> Vault {
        try Vault.open(at: context.vaultPath, password: try SecureBytes(copying: password.utf8))
    }

    /// The master password, typed once.
    static var unlock: [ScriptedPrompt.Answer] { [.secret(password)] }
}

extension GetCredential {
    /// The command `pwtui get WORDS… [--id ID] [--field FIELD]` runs, built as GetCommand builds it
    /// (a single word that names no service may be a title).
    static func words(
        _ words: [String], id: String? = nil, field: CredentialField = .password,
        noInteraction: Bool = false
    ) throws -> GetCredential {
        let (query, titleFallback) = try GetCredential.query(words: words, id: id)
        var get = GetCredential(query: query, field: field, noInteraction: noInteraction)
        get.titleFallback = titleFallback
        return get
    }
}
