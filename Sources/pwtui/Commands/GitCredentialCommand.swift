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
/// - get: the best match for the request's URL (and username, when git names one) answers with
///   `username=` and `password=`; without the picker only a host-level match (exact URL to
///   wildcard) answers, never another host of the same site. When the vault must be unlocked and a terminal exists, the
///   picker opens on it, ranked for that URL; cancelling there answers `quit=1`. Without a
///   terminal (and without --master-password-fd) nothing is printed and git moves on.
/// - store (after a successful login): a new credential is added; one that differs from the saved
///   one is updated only after a yes on the terminal, and the old password stays in history.
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
        while read(0, &byte, 1) == 1, input.count < 64 * 1024 { try input.append(byte) }
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

    /// The credentials for this request, best first; with a username, only that account's.
    private func candidates(_ vault: Vault, _ service: ServiceIdentifier, username: String?) -> [RankedCredential] {
        CredentialRanking.matches(vault.contents.credentials, for: [service], context: global.rankingContext(for: vault))
            .filter { username == nil || $0.credential.username == username }
    }

    private func answer(_ credential: Credential, from vault: Vault) throws {
        try StandardOutput.write("username=\(credential.username)\n")
        try StandardOutput.write("password=")
        try vault.withSecret(credential.secret) { try StandardOutput.write($0) }
        try StandardOutput.write("\n")
    }

    private func get(_ request: borrowing GitCredentialRequest, _ service: ServiceIdentifier, path: String) throws {
        if let fd = global.masterPasswordFD {
            let vault = try Vault.open(at: path, password: try SecretReader.firstLine(of: fd, what: "--master-password-fd"))
            // Without a person to choose, only host-level matches answer: a same-site or equivalent
            // credential is another host's password, which git would send to this one.
            let automatic: Set<MatchKind> = [.exactURL, .pathPrefix, .sameHost, .parentDomain, .wildcard]
            if let best = candidates(vault, service, username: request.username).first(where: { $0.match.map(automatic.contains) ?? false }) {
                try answer(best.credential, from: vault)
            }
            return
        }
        guard let terminal = try? PickCommand.openTerminal(theme: try global.settings().theme) else { return }  // git moves on
        let flow = PickCommand.flow(on: terminal, vaultPath: path, requests: [service], global: global,
                                    preferring: request.username)
        let outcome: PickerFlow.Outcome
        do {
            defer { terminal.close() }
            outcome = try flow.run()
        }
        switch outcome {
        case .chosen(let vault, let credential): try answer(credential, from: vault)
        case .cancelled: try StandardOutput.write("quit=1\n")
        case .wrongPassword: throw CommandFailure(.wrongPassword, "wrong master password for \(path)")
        }
    }

    private func store(_ request: consuming GitCredentialRequest, _ service: ServiceIdentifier, path: String) throws {
        guard let username = request.username, let password = request.password.take() else { return }
        guard let vault = try? global.openVault() else { return }  // locked and no way to ask: git goes on
        let exact = candidates(vault, service, username: username).filter { [.exactURL, .pathPrefix, .sameHost].contains($0.match) }
        guard let existing = exact.first?.credential else {
            try vault.add(services: [try ServiceIdentifier("\(service.scheme?.rawValue ?? "https")://\(request.fields["host"] ?? service.host)")],
                          username: username, secret: password)
            try global.save(vault)
            return
        }
        let same = vault.withSecret(existing.secret) { stored in password.isEqual(to: stored) }
        guard !same else { return }
        guard let terminal = TerminalPrompt(),
              try terminal.confirm("Git logged in to \(service.host) as \(username) with a password that differs from the saved one. Update it?")
        else { return }
        try vault.replaceSecret(of: existing.id, with: password)
        try global.save(vault)
        StandardError.say("Updated \(existing.displayTitle); the previous password is kept in its history.")
    }

    private func erase(_ request: borrowing GitCredentialRequest, _ service: ServiceIdentifier, path: String) throws {
        guard let terminal = TerminalPrompt() else { return }  // never deletes without asking
        guard let vault = try? global.openVault() else { return }
        guard let existing = candidates(vault, service, username: request.username)
            .first(where: { [.exactURL, .pathPrefix, .sameHost].contains($0.match) })?.credential else { return }
        guard try terminal.confirm("Git says the login to \(service.host) as \(existing.username) failed. Delete the saved credential \(existing.displayTitle)?")
        else { return }
        try vault.remove(existing.id)
        try global.save(vault)
    }
}
