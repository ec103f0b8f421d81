import ArgumentParser
import PwtuiTestSupport
import Testing
@testable import pwtui

/// `QuickAdd` reads the everyday shapes of `add` without ArgumentParser (for speed): whatever it
/// reads, ArgumentParser must read the same way and `AddCommand.validate` accept, and what it
/// declines goes to ArgumentParser.
@Suite("add read without ArgumentParser")
struct QuickAddTests {
    /// Words and word pairs that `add` lists are made of, good and bad: the services first (0...4),
    /// then the good account names (5...6).
    static let pieces: [[String]] = [
        ["github.com"], ["https://login.example.com/path"], ["two.example"], ["Home Wi-Fi"], ["help"],
        ["--username", "alice"], ["--username=bob"], ["--username"], ["--username="], ["--username", "-a"],
        ["--title", "Work mail"], ["--title=Home Wi-Fi"], ["--title"], ["--title="], ["--title", "-t"],
        ["--notes", "PIN in the drawer"], ["--notes=a=b"], ["--notes="], ["--notes", "-n"],
        ["--force"], ["--force=yes"], ["--generate"], ["--generate=yes"], ["--print"], ["--print=yes"],
        ["--vault", "/tmp/a vault.pwtui"], ["--vault="], ["--vault", "-v"], ["--vault=/v"],
        ["--config", "/tmp/config.toml"], ["--config="],
        ["--master-password-fd", "3"], ["--master-password-fd=0"], ["--master-password-fd", "x"],
        ["--master-password-fd", "99999999999"],
        ["--rank", "5"], ["--rank", "-10"], ["--rules", "minlength: 20;"], ["--kind", "note"], ["--kind=login"],
        ["--field", "cardholder=Kim"], ["--totp"],
        ["--"], ["-h"], ["--help"], ["--unknown"], ["--version"], ["-x"], ["--username", "--title"],
    ]

    @Test("Every generated list QuickAdd reads, ArgumentParser reads the same and validates (6,000 lists, seeded)")
    func readsAlike() throws {
        var rng = SeededGenerator(seed: 37)
        var read = 0
        for _ in 0 ..< 6_000 {
            // A service and an account name most of the time, so that many lists are read; then
            // anything, in any order (repeats included).
            var pieces: [[String]] = []
            if Int.random(in: 0 ..< 5, using: &rng) > 0 {
                pieces.append(Self.pieces[Int.random(in: 0 ... 4, using: &rng)])
            }
            if Int.random(in: 0 ..< 4, using: &rng) > 0 {
                pieces.append(Self.pieces[Int.random(in: 5 ... 6, using: &rng)])
            }
            for _ in 0 ..< Int.random(in: 0 ... 4, using: &rng) {
                pieces.append(Self.pieces.randomElement(using: &rng)!)
            }
            pieces.shuffle(using: &rng)
            let arguments = ["add"] + pieces.flatMap { $0 }
            guard let quick = QuickAdd(arguments) else { continue }
            read += 1
            let parsed = try #require(try Pwtui.parseAsRoot(arguments) as? AddCommand, "\(arguments)")
            #expect(parsed.services == quick.services, "\(arguments)")
            #expect(parsed.username == quick.username, "\(arguments)")
            #expect(parsed.title == quick.title, "\(arguments)")
            #expect(parsed.notes == quick.notes, "\(arguments)")
            #expect(parsed.force == quick.force, "\(arguments)")
            #expect(parsed.generate == quick.generate, "\(arguments)")
            #expect(parsed.printPassword == quick.printPassword, "\(arguments)")
            #expect(parsed.global.vault == quick.global.vault, "\(arguments)")
            #expect(parsed.global.config == quick.global.config, "\(arguments)")
            #expect(parsed.global.masterPasswordFD == quick.global.masterPasswordFD, "\(arguments)")
            // What QuickAdd has no words for is ArgumentParser's default.
            #expect(parsed.rank == 0 && parsed.rules == nil && parsed.kind == .login, "\(arguments)")
            #expect(parsed.fields.isEmpty && !parsed.totp, "\(arguments)")
        }
        // Not a test that passes by declining everything.
        #expect(read > 800, "\(read)")
    }

    @Test(
        "The everyday shapes are read without ArgumentParser",
        arguments: [
            ["add", "github.com", "--username", "alice"], ["add", "x.example", "--username=u", "--generate"],
            ["add", "github.com", "api.github.com", "--username", "alice", "--generate", "--print"],
            ["add", "https://login.example.com/path", "--username", "me", "--title", "Example", "--notes", "n"],
            ["add", "--username", "alice", "--force", "example.org"],
            [
                "add", "--vault", "/v.pwtui", "--master-password-fd", "3", "--config=/c.toml", "x.example",
                "--username", "u",
            ],
        ])
    func everydayShapes(arguments: [String]) {
        #expect(QuickAdd(arguments) != nil)
    }

    @Test(
        "What only ArgumentParser can answer is declined",
        arguments: [
            ["add"], ["add", "--title", "Home Wi-Fi"], ["add", "Home Wi-Fi"], ["add", "x.example"],
            ["add", "x.example", "--username", "u", "--print"], ["add", "x.example", "--username", "u", "--help"],
            ["add", "x.example", "--username", "u", "-h"], ["add", "x.example", "--username", "a", "--username", "b"],
            ["add", "x.example", "--username", "u", "--generate", "--rules", "minlength: 20;"],
            ["add", "x.example", "--username", "u", "--generate=minlength: 20;"],
            ["add", "x.example", "--username", "u", "--rank", "-10"], ["add", "--kind", "note", "--title", "Codes"],
            ["add", "x.example", "--username", "u", "--totp"], ["add", "x.example", "--username="],
            ["add", "x.example", "--username", "u", "--notes", "-n"],
            ["add", "--username", "u", "--", "-weird.example"],
            ["add", "x.example", "--username", "u", "--force=yes"], ["get", "x.example", "--username", "u"],
            ["add", "x.example", "--username", "u", "--master-password-fd", "three"],
        ])
    func declined(arguments: [String]) {
        #expect(QuickAdd(arguments) == nil)
    }
}
