import Foundation
import PwtuiTestSupport
import Testing
@testable import Interchange
import VaultModel

/// Bad input gets the file, the line and the column, never a field's contents, and the import
/// changes nothing (that half is in the command's tests).
@Suite("Importing bad input")
struct ImportBadInputTests {
    let directory = TemporaryDirectory("import-bad")

    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = try directory.freshPath(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func file(_ name: String, _ text: String) throws -> String {
        try file(name, Array(text.utf8))
    }

    func failure(_ path: String, format: ImportFormat? = nil) throws -> ImportFailure {
        do {
            _ = try ImportReader.read(path, format: format, decrypter: ImportSamples.plaintextDecrypter)
        } catch let failure as ImportFailure {
            return failure
        }
        Issue.record("\(path) was read without an error")
        return ImportFailure("none")
    }

    @Test("an unbalanced quote: where the field opened, and the password is not quoted")
    func unbalancedQuote() throws {
        let path = try file("open.csv", "name,url,username,password\nx,https://x.com,u,\"hunter2\nmore\n")
        let failure = try failure(path)
        #expect(failure.file == path)
        #expect(failure.line == 2)
        #expect(failure.column == 19)
        #expect(!failure.description.contains("hunter2"))
    }

    @Test(
        "a short row is padded, as Python's csv reads it; a row with text past the header's last column is rejected by its line"
    )
    func wrongColumnCount() throws {
        let path = try file(
            "short.csv",
            "name,url,username,password\na,https://a.com,u,p\nb,https://b.com,u\nc,https://c.com,u,p,x\nd,https://d.com,u,p,,\n"
        )
        let batch = try ImportReader.read(path)
        #expect(batch.entries.count == 3)
        #expect(batch.rejected.map(\.line) == [4])
        #expect(batch.rejected.first?.reason == "5 fields where the header has 4, with text past the last column")
        let plan = try ImportSamples.plan(batch)
        #expect(plan.invalidCount == 1)
        #expect(plan.addedCount == 3)
        #expect(plan.additions.map(\.credential.username) == ["u", "u", "u"])
    }

    @Test("invalid UTF-8 (a Latin-1 export): the line, the column and the byte")
    func invalidUTF8() throws {
        let path = try file(
            "latin1.csv", Array("name,url,username,password\nCaf".utf8) + [0xE9] + Array(",https://c.fr,u,p\n".utf8))
        let failure = try failure(path)
        #expect(failure.line == 2)
        #expect(failure.column == 4)
        #expect(failure.reason.contains("0xE9"))
    }

    @Test("an unknown header: its width and the formats pwtui reads, not its cells")
    func unknownHeader() throws {
        let path = try file("nohead.csv", "github.com,alice,hunter2\n")
        let failure = try failure(path)
        #expect(failure.line == 1)
        #expect(failure.reason.contains("3 columns"))
        #expect(failure.reason.contains("chrome (name,password,url,username)"))
        #expect(!failure.description.contains("hunter2"))
    }

    @Test("--format that does not fit the header says which columns are missing")
    func formatMismatch() throws {
        let failure = try failure(ImportSamples.path("chrome.csv"), format: .firefox)
        #expect(failure.reason.contains("lacks httprealm"))
    }

    @Test("an empty file, a BOM only, a header with no entries")
    func empty() throws {
        #expect(try failure(try file("empty.csv", "")).reason == "the file is empty")
        #expect(try failure(try file("bom.csv", [0xEF, 0xBB, 0xBF, 0x0A])).reason == "the file is empty")
        #expect(
            try failure(try file("header.csv", "name,url,username,password\n")).reason
                == "the file has a header and no entries")
    }

    @Test("a file larger than any vault could hold is refused before it is read, naming the limit")
    func tooLarge() throws {
        let path = try file("big.csv", String(repeating: "x", count: 2048))
        #expect(throws: ImportFailure.self) { _ = try ProtectedFile.read(path, limit: 1024) }
        do {
            _ = try ProtectedFile.read(path, limit: 1024)
        } catch let failure as ImportFailure {
            #expect(failure.reason.contains("at most 1024 bytes"))
        }
        #expect(ProtectedFile.limit == Limits.vaultPayloadBytes)
    }

    @Test("a directory that is not a pass store, an age store, a store without entries")
    func wrongDirectories() throws {
        let plain = try directory.freshPath("plain")
        try FileManager.default.createDirectory(atPath: plain, withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: URL(fileURLWithPath: plain + "/readme.txt"))
        #expect(try failure(plain).reason == "is not a pass store: it has no .gpg-id and no .gpg entries")

        let age = try directory.freshPath("age")
        try FileManager.default.createDirectory(atPath: age, withIntermediateDirectories: true)
        try Data("age1...".utf8).write(to: URL(fileURLWithPath: age + "/.age-recipients"))
        #expect(try failure(age).reason.contains("age backend"))

        let empty = try directory.freshPath("empty-store")
        try FileManager.default.createDirectory(atPath: empty + "/.git", withIntermediateDirectories: true)
        try Data("alice@example.com\n".utf8).write(to: URL(fileURLWithPath: empty + "/.gpg-id"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: empty + "/.git/secret.gpg"))
        #expect(try failure(empty).reason == "is a pass store with no entries")

        #expect(try failure(plain, format: .chrome).reason.contains("only a pass / gopass store"))
        #expect(
            try failure(ImportSamples.path("chrome.csv"), format: .pass).reason.contains("takes the store's directory"))
    }

    @Test("a missing file and a FIFO are refused without blocking")
    func notFiles() throws {
        #expect(try failure(directory.path + "/nothing.csv").reason == "no such file or directory")
        let fifo = try directory.freshPath("fifo.csv")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(try failure(fifo).reason == "is a FIFO (named pipe), not a regular file; not read")
    }

    @Test("an encrypted Bitwarden export says what to export instead")
    func encryptedBitwarden() throws {
        let path = try file("enc.json", #"{"encrypted": true, "encKeyValidation_DO_NOT_EDIT": "2.abc", "items": []}"#)
        #expect(try failure(path).reason.contains("not \".json (Encrypted)\""))
    }

    @Test("JSON and XML damage: the line and column of the fault")
    func structuredDamage() throws {
        let json = try failure(try file("bad.json", "{\n  \"items\": [\n    {\"name\": \"x\",}\n  ]\n}\n"))
        #expect(json.line == 3)
        let xml = try failure(try file("bad.xml", "<KeePassFile>\n<Root>\n<Group>\n</Root>\n</KeePassFile>\n"))
        #expect(xml.line == 4)
        let wrong = try failure(try file("other.xml", "<?xml version=\"1.0\"?>\n<html><body/></html>\n"))
        #expect(wrong.reason.contains("starts with <html>"))
    }

    @Test("a pass entry gpg cannot decrypt is rejected by its path; the others still read")
    func undecryptable() throws {
        let store = try directory.freshPath("store")
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        try Data("k\n".utf8).write(to: URL(fileURLWithPath: store + "/.gpg-id"))
        try Data("pw\n".utf8).write(to: URL(fileURLWithPath: store + "/a.example.gpg"))
        try Data("pw\n".utf8).write(to: URL(fileURLWithPath: store + "/b.example.gpg"))
        let batch = try ImportReader.read(
            store,
            decrypter: { path in
                if path.hasSuffix("b.example.gpg") { throw ImportFailure("gpg could not decrypt it: No secret key") }
                return try ImportSamples.plaintextDecrypter(path)
            })
        #expect(batch.entries.map(\.title) == ["a.example"])
        #expect(batch.rejected.map(\.file) == ["b.example"])
    }
}
