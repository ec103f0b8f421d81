import ArgumentParser
import PwtuiTestSupport
import Testing
@testable import pwtui

/// `QuickGet` reads the everyday shapes of `get` without ArgumentParser (for speed): whatever it
/// reads, ArgumentParser must read the same way, and what it declines goes to ArgumentParser.
@Suite("get read without ArgumentParser")
struct QuickGetTests {
    /// Words and word pairs that `get` lists are made of, good and bad.
    static let pieces: [[String]] = [
        ["github.com"], ["https://login.example.com/path"], ["two.example"], ["ssh://git@host:22"], ["help"],
        ["--id", "3f2a"], ["--id=3f2a9b"], ["--id"], ["--id="], ["--id", "-3f2a"],
        ["--field", "username"], ["--field=json"], ["--field", "both"], ["--field", "nope"], ["--field"],
        ["--no-interaction"], ["--no-interaction=yes"],
        ["--vault", "/tmp/a vault.pwtui"], ["--vault="], ["--vault", "-v"], ["--vault=/v"],
        ["--config", "/tmp/config.toml"], ["--config="],
        ["--master-password-fd", "3"], ["--master-password-fd=0"], ["--master-password-fd", "x"],
        ["--master-password-fd", "99999999999"],
        ["--"], ["-h"], ["--help"], ["--unknown"], ["--version"], ["-x"], ["--id", "--field"],
    ]

    @Test("Every generated list QuickGet reads, ArgumentParser reads the same (6,000 lists, seeded)")
    func readsAlike() throws {
        var rng = SeededGenerator(seed: 14)
        var read = 0
        for _ in 0 ..< 6_000 {
            var arguments = ["get"]
            for _ in 0 ..< Int.random(in: 0 ... 4, using: &rng) {
                arguments += Self.pieces.randomElement(using: &rng)!
            }
            guard let quick = QuickGet(arguments) else { continue }
            read += 1
            let parsed = try #require(try Pwtui.parseAsRoot(arguments) as? GetCommand, "\(arguments)")
            #expect(parsed.services == quick.services, "\(arguments)")
            #expect(parsed.id == quick.id, "\(arguments)")
            #expect(parsed.field == quick.field, "\(arguments)")
            #expect(parsed.noInteraction == quick.noInteraction, "\(arguments)")
            #expect(parsed.global.vault == quick.global.vault, "\(arguments)")
            #expect(parsed.global.config == quick.global.config, "\(arguments)")
            #expect(parsed.global.masterPasswordFD == quick.global.masterPasswordFD, "\(arguments)")
        }
        // Not a test that passes by declining everything.
        #expect(read > 400)
    }

    @Test(
        "The everyday shapes are read without ArgumentParser",
        arguments: [
            ["get", "github.com"], ["get", "https://github.com/login", "github.com"], ["get", "--id", "3f2a"],
            ["get", "github.com", "--id", "3f2a"],
            ["get", "github.com", "--field", "username"], ["get", "--field=json", "--id=3f2a"],
            ["get", "github.com", "--no-interaction"], ["get", "--vault", "/v.pwtui", "github.com"],
            ["get", "--master-password-fd", "3", "--config", "/c.toml", "example.org"],
        ])
    func everydayShapes(arguments: [String]) {
        #expect(QuickGet(arguments) != nil)
    }

    @Test(
        "What only ArgumentParser can answer is declined",
        arguments: [
            ["get"], ["get", "--help"], ["get", "-h"], ["get", "--id", "a", "--id", "b"],
            ["get", "--field=", "x.com"], ["get", "--vault=", "x.com"], ["get", "--", "-weird"], ["list", "x.com"],
            ["get", "x.com", "--master-password-fd", "three"],
        ])
    func declined(arguments: [String]) {
        #expect(QuickGet(arguments) == nil)
    }
}
