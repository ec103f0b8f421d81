import Foundation
import Platform
import PwtuiTestSupport
import ServiceMatching
import TUITestDoubles
import Testing
import TUI
import VaultCrypto
import VaultModel

/// The detail screen as the picker opens it (→ on the list, Esc back), through the real flow on a
/// `GridTerminal`: what it shows, the reveal and the dots drawn again, the history and a restore.
@Suite struct CredentialDetailFlowTests {
    static let request = "https://github.com/login"
    static let size = TerminalSize(rows: 24, columns: 90)

    /// `CredentialDetails` over the sample's vault, as pwtui's own does it (matching with the
    /// system's suffix list, a restore saved with the save protocol).
    final class SampleDetails: CredentialDetails {
        let vault: Vault
        let id: UUID
        let requests: [ServiceIdentifier]
        var restores: [Int] = []

        init(vault: Vault, id: UUID, requests: [ServiceIdentifier]) {
            self.vault = vault
            self.id = id
            self.requests = requests
        }

        var credential: Credential { vault.contents.credential(withID: id)! }
        var lastUsed: Timestamp? { nil }

        func match(of service: ServiceIdentifier) -> MatchKind? {
            let context = RankingContext(suffixes: LibPSL() ?? NoPublicSuffixList())
            return requests.lazy.compactMap { ServiceMatch.tier(stored: service, request: $0, context: context) }.first
        }

        func withSecret<Result>(_ reference: SecretReference, _ body: (UnsafeRawBufferPointer) throws -> Result)
            rethrows -> Result
        {
            try vault.withSecret(reference, body)
        }

        func withOneTimeCode<Result>(_ body: (UnsafeRawBufferPointer, Int) throws -> Result) throws -> Result? {
            let credential = credential
            guard credential.totp != nil else { return nil }
            let timed = try vault.oneTimeCode(of: credential)
            return try timed.code.withUnsafeBytes { try body($0, timed.secondsLeft) }
        }

        func restore(previous number: Int) throws {
            restores.append(number)
            _ = try CredentialChange.edit(id: id.uuidString, .init(restore: number))
                .apply(to: vault, secret: try SecureBytes(zeros: 0), suffixes: NoPublicSuffixList())
            try vault.save()
        }
    }

    func flow(_ sample: SampleVault, _ terminal: GridTerminal, preview: Bool = false) throws -> PickerFlow<Vault, UUID>
    {
        let path = sample.path
        let requests = [try ServiceIdentifier(Self.request)]
        return PickerFlow(
            terminal: terminal, vaultPath: path, requestLabel: Self.request,
            preview: preview ? try sample.ranked(for: Self.request) : nil,
            answerWithoutUnlocking: preview ? { _ in nil } : nil,
            details: { vault, id in SampleDetails(vault: vault, id: id, requests: requests) },
            unlock: { try Vault.open(at: path, password: $0) },
            rank: { SampleVault.rank($0, for: requests) },
            credential: { $0.contents.credential(withID: $1) })
    }

    func unlocking(_ terminal: GridTerminal) {
        terminal.type(SampleVault.password)
        terminal.press(.enter)
    }

    func detailFrames(_ terminal: GridTerminal) -> [Canvas] {
        terminal.frames.filter { $0.text.contains("Previous passwords") || $0.text.contains("No previous passwords") }
    }

    @Test func theListOffersDetailsAndEscGoesBackToIt() throws {
        let sample = try SampleVault()
        let terminal = GridTerminal(size: Self.size)
        unlocking(terminal)
        terminal.press(.right, .escape, .down, .enter)
        guard case .chosen(_, let credential) = try flow(sample, terminal).run() else {
            Issue.record("nothing chosen")
            return
        }
        #expect(credential.title == "GitHub API", "back on the list, which works as before")
        let lists = terminal.frames.filter { $0.text.contains("Matches for") }
        #expect(lists.first?.text.contains("→ details") == true, "the key is in the help bar")
        let details = try #require(detailFrames(terminal).first)
        try assertSnapshot(details, named: "detail-github")
        #expect(details.text.contains("alice"))
        #expect(details.text.contains("https://github.com/login  exact-url"), "how the service matched")
        #expect(!details.text.contains(SampleVault.secrets[0]), "masked")
        #expect(details.text.contains(CredentialDetailScreen.mask))
    }

    @Test func theOneTimeCodeIsMaskedUntilRevealedAndCountsDownEachSecond() throws {
        let sample = try SampleVault()
        let github = try #require(sample.vault.contents.credentials.first { $0.title == "GitHub" })
        let key = Array("12345678901234567890".utf8)
        try sample.vault.setOneTimeKey(of: github.id, to: .standard, key: try SecureBytes(copying: key))
        try sample.vault.save()
        let terminal = GridTerminal(size: Self.size)
        unlocking(terminal)
        terminal.enqueue(.key(.right), .tick, .key(.text("r")), .tick, .key(.text("r")), .key(.escape), .key(.escape))
        _ = try flow(sample, terminal).run()
        let details = detailFrames(terminal)
        #expect(details.count >= 5, "drawn again on each tick")
        let hidden = try #require(details.first)
        let codeLine = try #require(hidden.text.split(separator: "\n").first { $0.contains("Code") })
        #expect(codeLine.contains(CredentialDetailScreen.mask) && codeLine.contains("s more"), "\(codeLine)")
        // Revealed: one of the codes valid around now (a step may turn between here and there).
        let now = Int64(Date().timeIntervalSince1970)
        let expected = try [-30, 0, 30].map { offset in
            try key.withUnsafeBytes {
                try OneTimeCode.totp(key: $0, at: now + Int64(offset), period: 30, digits: 6, algorithm: .sha1).code
                    .withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            }
        }
        let revealed = try #require(
            details.first { frame in expected.contains { frame.text.contains($0) } }, "the code after r")
        #expect(
            revealed.text.split(separator: "\n").first { $0.contains("Code") }?.contains(CredentialDetailScreen.mask)
                == false)
        #expect(!(details.last?.text.contains(expected[1]) ?? true), "dots again after r")
        var screen = CredentialDetailScreen(details: SampleDetails(vault: sample.vault, id: github.id, requests: []))
        #expect(screen.handle(.tick, context: ScreenContext(size: Self.size)) == .stay)
    }

    @Test func namedFieldsAreShownASecretOneMaskedUntilRevealed() throws {
        let sample = try SampleVault()
        let github = try #require(sample.vault.contents.credentials.first { $0.title == "GitHub" })
        try sample.vault.setField(
            of: github.id, name: "PIN", text: nil, secret: try SecureBytes(copying: Array("8642".utf8)))
        try sample.vault.setField(of: github.id, name: "team", text: "platform", secret: try SecureBytes(zeros: 0))
        try sample.vault.save()
        let terminal = GridTerminal(size: Self.size)
        unlocking(terminal)
        terminal.enqueue(.key(.right), .key(.text("r")), .key(.text("r")), .key(.escape), .key(.escape))
        _ = try flow(sample, terminal).run()
        let details = detailFrames(terminal)
        let hidden = try #require(details.first)
        let pinLine = try #require(hidden.text.split(separator: "\n").first { $0.contains("PIN: ") })
        #expect(
            pinLine.contains("Fields") && pinLine.contains(CredentialDetailScreen.mask) && !pinLine.contains("8642"),
            "\(pinLine)")
        #expect(hidden.text.contains("team: platform"))
        #expect(details.contains { $0.text.contains("PIN: 8642") }, "revealed with r")
        #expect(!(details.last?.text.contains("8642") ?? true), "dots again after r")
    }

    @Test func theProgramsACredentialIsBoundToAreListed() throws {
        let sample = try SampleVault()
        let github = try #require(sample.vault.contents.credentials.first { $0.title == "GitHub" })
        try sample.vault.update(github.id) { $0.allowedPrograms = ["docker-credential-pwtui", "git"] }
        try sample.vault.save()
        let terminal = GridTerminal(size: Self.size)
        unlocking(terminal)
        terminal.enqueue(.key(.right), .key(.escape), .key(.escape))
        _ = try flow(sample, terminal).run()
        let shown = try #require(detailFrames(terminal).first).text
        let line = try #require(shown.split(separator: "\n").first { $0.contains("Given to") }, "\(shown)")
        #expect(line.contains("docker-credential-pwtui, git"))
    }

    @Test func aSecretFieldsEarlierValuesAreListedMaskedUntilRevealed() throws {
        let sample = try SampleVault()
        let github = try #require(sample.vault.contents.credentials.first { $0.title == "GitHub" })
        try sample.vault.setField(
            of: github.id, name: "PIN", text: nil, secret: try SecureBytes(copying: Array("1111".utf8)))
        try sample.vault.setField(
            of: github.id, name: "PIN", text: nil, secret: try SecureBytes(copying: Array("2222".utf8)))
        try sample.vault.save()
        let terminal = GridTerminal(size: TerminalSize(rows: 40, columns: 90))
        unlocking(terminal)
        terminal.enqueue(.key(.right), .key(.text("r")), .key(.escape), .key(.escape))
        _ = try flow(sample, terminal).run()
        let details = detailFrames(terminal)
        let hidden = try #require(details.first)
        #expect(hidden.text.contains("Previous values of PIN (1)"), "\(hidden.text)")
        let line = try #require(
            hidden.text.split(separator: "\n").first {
                $0.contains("1  ") && $0.contains(CredentialDetailScreen.mask) && !$0.contains("Password")
                    && $0.hasPrefix(" ")
            })
        #expect(!hidden.text.contains("1111"), "\(line)")
        #expect(details.contains { $0.text.contains("1111") }, "revealed with r")
    }

    @Test func withoutDetailsTheListDoesNotOfferThem() throws {
        let sample = try SampleVault()
        let terminal = GridTerminal(size: Self.size)
        unlocking(terminal)
        terminal.press(.right, .enter)
        guard case .chosen(_, let credential) = try sample.flow(terminal, request: Self.request).run() else {
            Issue.record("nothing chosen")
            return
        }
        #expect(credential.title == "GitHub", "→ did nothing")
        #expect(terminal.frames.allSatisfy { !$0.text.contains("→ details") })
    }

    @Test func revealShowsThePasswordAndHidingDrawsDotsAgain() throws {
        let sample = try SampleVault()
        let terminal = GridTerminal(size: Self.size)
        unlocking(terminal)
        terminal.press(.right, .text("r"), .text("r"), .escape, .escape)
        #expect(try flow(sample, terminal).run().isCancelled)
        let frames = detailFrames(terminal)
        #expect(frames.count == 3)
        #expect(!frames[0].text.contains(SampleVault.secrets[0]))
        #expect(frames[1].text.contains("Password    \(SampleVault.secrets[0])"), "revealed:\n\(frames[1].text)")
        #expect(!frames[2].text.contains(SampleVault.secrets[0]), "hidden again")
        #expect(frames[2].text == frames[0].text, "the same dots as before")
        #expect(terminal.lastFrame.map { !$0.text.contains(SampleVault.secrets[0]) } == true)
    }

    @Test func enterOnTheDetailsUsesTheCredential() throws {
        let sample = try SampleVault()
        let terminal = GridTerminal(size: Self.size)
        unlocking(terminal)
        terminal.press(.down, .right, .enter)
        guard case .chosen(_, let credential) = try flow(sample, terminal).run() else {
            Issue.record("nothing chosen")
            return
        }
        #expect(credential.title == "GitHub API")
    }

    /// The sample's GitHub password changed twice: hunter2-github → second → third.
    func sampleWithHistory() throws -> (SampleVault, UUID) {
        let sample = try SampleVault()
        let github = try #require(sample.vault.contents.credentials.first { $0.title == "GitHub" })
        try sample.vault.replaceSecret(of: github.id, with: try secure("second-github"))
        try sample.vault.replaceSecret(of: github.id, with: try secure("third-github"))
        try sample.vault.save()
        return (sample, github.id)
    }

    @Test func theHistoryIsListedWithDatesAndRevealedWithThePassword() throws {
        let (sample, _) = try sampleWithHistory()
        let terminal = GridTerminal(size: Self.size)
        unlocking(terminal)
        terminal.press(.right, .text("r"), .escape, .escape)
        _ = try flow(sample, terminal).run()
        let frames = detailFrames(terminal)
        let masked = try #require(frames.first).text
        #expect(masked.contains("Previous passwords (2)"))
        #expect(masked.contains("1  2023-11-14 22:13 UTC  \(CredentialDetailScreen.mask)"))
        #expect(masked.contains("2  2023-11-14 22:13 UTC  \(CredentialDetailScreen.mask)"))
        let revealed = try #require(frames.dropFirst().first).text
        #expect(revealed.contains("1  2023-11-14 22:13 UTC  second-github"), "newest first:\n\(revealed)")
        #expect(revealed.contains("2  2023-11-14 22:13 UTC  hunter2-github"))
    }

    @Test func aConfirmedRestoreMakesTheOldPasswordCurrentAndKeepsTheCurrentOne() throws {
        let (sample, id) = try sampleWithHistory()
        let terminal = GridTerminal(size: Self.size)
        unlocking(terminal)
        terminal.press(.right, .tab, .tab, .text("R"))
        terminal.press(.text("y"), .escape, .escape)
        _ = try flow(sample, terminal).run()
        let texts = detailFrames(terminal).map(\.text)
        #expect(
            texts.contains { $0.contains("Restore previous password 2? The current one stays in the history. y/n") })
        #expect(texts.contains { $0.contains("Saving…") }, "the save is shown while it runs")
        #expect(texts.contains { $0.contains("Previous passwords (3)") && $0.contains("Restored the password") })
        let reopened = try Vault.open(at: sample.path, password: try secure(SampleVault.password))
        let github = try #require(reopened.contents.credential(withID: id))
        #expect(reopened.withSecret(github.secret) { String(decoding: $0, as: UTF8.self) } == "hunter2-github")
        #expect(
            github.previousSecrets.map { s in reopened.withSecret(s.secret) { String(decoding: $0, as: UTF8.self) } }
                == ["third-github", "second-github", "hunter2-github"])
    }

    @Test func aDeclinedOrUnpickedRestoreChangesNothing() throws {
        let (sample, id) = try sampleWithHistory()
        let terminal = GridTerminal(size: Self.size)
        unlocking(terminal)
        terminal.press(.right, .text("R"), .tab, .text("R"), .text("n"), .escape, .escape)
        _ = try flow(sample, terminal).run()
        let texts = detailFrames(terminal).map(\.text)
        #expect(texts.contains { $0.contains("Tab picks the previous password to restore first.") })
        #expect(texts.contains { $0.contains("Nothing restored.") })
        let reopened = try Vault.open(at: sample.path, password: try secure(SampleVault.password))
        let github = try #require(reopened.contents.credential(withID: id))
        #expect(reopened.withSecret(github.secret) { String(decoding: $0, as: UTF8.self) } == "third-github")
        #expect(github.history.count == 2)
    }

    @Test func fromThePreviewTheDetailsAskForTheMasterPasswordFirst() throws {
        let sample = try SampleVault()
        let terminal = GridTerminal(size: Self.size)
        terminal.press(.right)
        unlocking(terminal)
        terminal.press(.escape, .escape)
        #expect(try flow(sample, terminal, preview: true).run().isCancelled)
        let texts = terminal.frames.map(\.text)
        #expect(texts.first?.contains("Matches for") == true, "the preview first")
        #expect(texts.contains { $0.contains("To see GitHub (alice)") })
        #expect(!detailFrames(terminal).isEmpty, "then the details")
        #expect(texts.last?.contains("Matches for") == true, "and back on the list of what was unlocked")
    }

    @Test func longNotesScroll() throws {
        let sample = try SampleVault()
        let github = try #require(sample.vault.contents.credentials.first { $0.title == "GitHub" })
        let notes = (1 ... 30).map { "note line \($0)" }.joined(separator: "\n")
        try sample.vault.update(github.id) { $0.notes = notes }
        try sample.vault.save()
        let terminal = GridTerminal(size: Self.size)
        unlocking(terminal)
        terminal.press(.right, .pageDown, .end, .escape, .escape)
        _ = try flow(sample, terminal).run()
        let frames = terminal.frames.filter { $0.text.contains("pwtui — GitHub") }
        #expect(frames.count == 3)
        #expect(frames[0].text.contains("note line 1\n") && frames[0].text.contains("more lines"))
        #expect(!frames[0].text.contains("note line 30"))
        #expect(frames[2].text.contains("note line 30"), "the end of the notes")
        #expect(frames[2].text.contains("No previous passwords"))
        #expect(frames[1].text != frames[0].text, "PgDn moved")
    }
}

extension PickerFlow.Outcome {
    var isCancelled: Bool {
        if case .cancelled = self { return true }
        return false
    }
}

/// An SSH key on the detail screen: its private key (the item's secret) is never drawn, not even
/// after `r`; its public key, hosts and policy are its fields.
@Suite struct SSHKeyDetailTests {
    @Test func thePrivateKeyIsNeverDrawnEvenRevealed() throws {
        let sample = try SampleVault()
        let privateKey = String(repeating: "5a", count: 32)
        var edits = CredentialChange.Edits()
        edits.kind = .sshKey
        edits.textFields = [
            .init(name: "public key", text: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExample laptop"),
            .init(name: "ssh hosts", text: "github.com"),
        ]
        let key = try CredentialChange.add(services: [], username: "", title: "laptop", notes: "", rank: 0, then: edits)
            .apply(
                to: sample.vault, secret: try SecureBytes(copying: Array(privateKey.utf8)),
                suffixes: NoPublicSuffixList())
        try sample.vault.save()
        let details = CredentialDetailFlowTests.SampleDetails(vault: sample.vault, id: key.id, requests: [])
        var screen = CredentialDetailScreen(details: details)
        let context = ScreenContext(size: CredentialDetailFlowTests.size)
        for revealed in [false, true] {
            var canvas = Canvas(size: CredentialDetailFlowTests.size)
            screen.render(into: &canvas)
            #expect(screen.revealed == revealed)
            #expect(!canvas.text.contains(privateKey) && !canvas.text.contains("5a5a"), "\(canvas.text)")
            #expect(canvas.text.contains("Private key") && canvas.text.contains("never shown"))
            #expect(!canvas.text.contains("Password"))
            #expect(canvas.text.contains("public key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExample laptop"))
            #expect(canvas.text.contains("ssh hosts: github.com"))
            _ = screen.handle(.key(.text("r")), context: context)
        }
    }
}
