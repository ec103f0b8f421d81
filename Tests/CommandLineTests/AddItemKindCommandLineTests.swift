// `pwtui add --kind` through the binary (issue 38): what the argument parser adds to the command
// (the kind's name, --field NAME=VALUE, the mistakes refused with 64 before anything is asked).

import Foundation
import Testing

@Suite("add --kind, the binary")
struct AddItemKindCommandLineTests {
    @Test("docs/items.md's lines: a note from stdin, a card's number from stdin with text fields; list marks them")
    func documentedItems() throws {
        let sandbox = try Sandbox.withVault()
        // The harness ends stdin with a newline (a here-string): the one a field drops.
        let note = try sandbox.pwtui(
            ["add", "--kind", "note", "--title", "Recovery codes"], stdin: "1111-2222\n3333-4444")
        #expect(note.exitCode == 0, "\(note)")
        let card = try sandbox.pwtui(
            ["add", "--kind", "card", "--title", "Visa", "--field", "cardholder=Kim Doe", "--field", "expiry=12/2029"],
            stdin: "4111111111111111")
        #expect(card.exitCode == 0, "\(card)")
        let identity = try sandbox.pwtui(["add", "--kind", "identity", "--title", "Me", "--field", "first name=Kim"])
        #expect(identity.exitCode == 0, "\(identity)")
        let codes = try sandbox.pwtui(["get", "Recovery codes", "--field", "note"])
        #expect(codes.out == "1111-2222\n3333-4444\n", "\(codes)")
        let number = try sandbox.pwtui(["get", "Visa", "--field", "number"])
        #expect(number.out == "4111111111111111\n", "\(number)")
        let list = try sandbox.pwtui(["list"])
        #expect(
            list.out.contains("[note]") && list.out.contains("[card]") && list.out.contains("[identity]"), "\(list)")
    }

    @Test(
        "mistakes are refused (64) before anything is read",
        arguments: [
            ["add", "--kind", "note", "example.com", "--title", "x"], ["add", "--kind", "card"],
            ["add", "--kind", "note", "--title", "x", "--generate"], ["add", "--kind", "pet", "--title", "x"],
            ["add", "--kind", "card", "--title", "x", "--field", "novalue"],
            ["add", "github.com", "--username", "u", "--field", "a=b"],
        ])
    func mistakes(_ arguments: [String]) throws {
        let sandbox = try Sandbox.withVault()
        let result = try sandbox.pwtui(arguments, stdin: "secret\n")
        #expect(result.exitCode == 64, "\(result)")
        #expect(try sandbox.listJSON().isEmpty)
    }
}
