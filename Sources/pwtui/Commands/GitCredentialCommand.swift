#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Foundation
import TUI
import VaultCrypto
import VaultModel

/// `git config credential.helper 'pwtui git-credential'`: git's credential-helper protocol.
///
/// - get: with nobody to look, only a host-level match (exact URL to wildcard) answers, never
///   another host of the same site; an unlocked agent (or --master-password-fd) answers it at
///   once with `username=` and `password=`. Otherwise, when a terminal exists, the picker opens on
///   it ranked for the URL (listed from the identity store before unlocking, answered by the agent
///   when it is unlocked); cancelling there answers `quit=1`. Without a terminal nothing is printed
///   and git moves on.
/// - store (after a successful login): a new credential is added; one that differs from the saved
///   one is updated only after a yes on the terminal, and the old password stays in history.
///   Through an unlocked agent when there is one, else after the master password.
/// - erase (after a failed login): deletes only after a yes on the terminal; never silently.
struct GitCredentialCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "git-credential", abstract: "git's credential helper: get, store, erase.")

    enum Operation: String, ExpressibleByArgument, CaseIterable {
        case get, store, erase
    }

    @OptionGroup var global: GlobalOptions

    @Argument(help: "What git asks: get, store or erase.")
    var operation: Operation

    func run() throws {
        var input = try SecureBytes(capacity: 4096)
        var byte: UInt8 = 0
        while read(0, &byte, 1) == 1 {
            guard input.count < Limits.gitRequestBytes else {
                throw CommandFailure(.usage, "git's request is longer than \(Limits.gitRequestBytes) bytes; nothing was done")
            }
            try input.append(byte)
        }
        let request = try GitCredentialRequest.parse(input)
        guard let service = try request.service() else { return }
        let path = global.vaultPath
        guard FileManager.default.fileExists(atPath: path) else { return }
        switch operation {
        case .get: try get(request, service, path: path)
        case .store: try store(request, service, path: path)
        case .erase: try erase(request, service, path: path)
        }
    }

    /// git's answer; `password` straight from protected memory.
    private func answer(username: String, password: UnsafeRawBufferPointer) throws {
        try StandardOutput.write("username=\(username)\npassword=")
        try StandardOutput.write(password)
        try StandardOutput.write("\n")
    }

    private func answer(_ credential: Credential, from vault: Vault) throws {
        try vault.withSecret(credential.secret) { try answer(username: credential.username, password: $0) }
    }

    private func get(_ request: borrowing GitCredentialRequest, _ service: ServiceIdentifier, path: String) throws {
        let automatic = CredentialQuery(services: [service], username: request.username, tiers: CredentialQuery.hostLevel)
        if let fd = global.masterPasswordFD {
            let vault = try Vault.open(at: path, password: try SecretReader.firstLine(of: fd, what: "--master-password-fd"))
            guard let credential = try? automatic.answer(in: vault, global: global) else { return }
            try answer(credential, from: vault)
            return
        }
        do {
            if let message = try AgentClient.current?.get(automatic, field: .password, vault: path), let identity = message.identity {
                try message.payload.withUnsafeBytes { try answer(username: identity.username, password: CredentialField.value(ofRendered: $0)) }
                return
            }
        } catch let failure as CommandFailure where failure.code == .noMatch {
            // Nothing for this host itself: the person at the terminal may still choose one.
        }
        guard let terminal = try? PickCommand.openTerminal(theme: try global.settings().theme) else { return }  // git moves on
        let agentAnswer = PickCommand.AgentAnswer()
        let flow = PickCommand.flow(on: terminal, vaultPath: path, requests: [service], global: global,
                                    preferring: request.username, agentField: .password, answer: agentAnswer)
        let outcome: PickerFlow.Outcome
        do {
            defer { terminal.close() }
            outcome = try flow.run()
        }
        switch outcome {
        case .chosen(let vault, let credential):
            try answer(credential, from: vault)
        case .answeredWithoutUnlocking:
            guard let identity = agentAnswer.identity, let password = agentAnswer.payload.take() else {
                throw CommandFailure(.ioError, "the agent's answer was lost")
            }
            try password.withUnsafeBytes { try answer(username: identity.username, password: CredentialField.value(ofRendered: $0)) }
        case .cancelled: try StandardOutput.write("quit=1\n")
        case .wrongPassword: throw CommandFailure(.wrongPassword, "wrong master password for \(path)")
        }
    }

    private func store(_ request: consuming GitCredentialRequest, _ service: ServiceIdentifier, path: String) throws {
        guard let username = request.username, let password = request.password.take() else { return }
        guard let access = try? VaultAccess.open(global) else { return }  // locked and no way to ask: git goes on
        let exact = CredentialQuery(services: [service], username: username, tiers: CredentialQuery.sameHost)
        guard let existing = try access.password(for: exact) else {
            let site = "\(service.scheme?.rawValue ?? "https")://\(request.fields["host"] ?? service.host)"
            try access.apply(.add(services: [site], username: username, title: "", notes: "", rank: 0), secret: password)
            return
        }
        guard !existing.password.isEqual(to: password) else { return }
        guard let terminal = TerminalPrompt(),
              try terminal.confirm("Git logged in to \(service.host) as \(username) with a password that differs from the saved one. Update it?")
        else { return }
        try access.apply(.edit(id: existing.identity.id.uuidString, CredentialChange.Edits(replacesSecret: true)), secret: password)
        StandardError.say("Updated \(existing.identity.displayTitle); the previous password is kept in its history.")
    }

    private func erase(_ request: borrowing GitCredentialRequest, _ service: ServiceIdentifier, path: String) throws {
        guard let terminal = TerminalPrompt() else { return }  // never deletes without asking
        guard let access = try? VaultAccess.open(global) else { return }
        let exact = CredentialQuery(services: [service], username: request.username, tiers: CredentialQuery.sameHost)
        guard let existing = try access.password(for: exact) else { return }
        guard try terminal.confirm("Git says the login to \(service.host) as \(existing.identity.username) failed. Delete the saved credential \(existing.identity.displayTitle)?")
        else { return }
        try access.apply(.remove(id: existing.identity.id.uuidString), secret: try SecureBytes(zeros: 0))
    }
}
