import Foundation
import PwtuiTestSupport
import Testing
import VaultCrypto
@testable import Passwords

/// Have I Been Pwned's two offline forms, generated here: the file ordered by hash (LF and CRLF,
/// upper and lower case, the wanted hash on the first and the last line, missing, an empty file,
/// broken lines, the wrong order, NTLM's file) and the range files of haveibeenpwned-downloader.
@Suite struct BreachSourceTests {
    let temporary = TemporaryDirectory("breach")

    /// `count` random 20-byte digests, sorted, from a fixed seed.
    static func digests(_ count: Int, seed: UInt64 = 29) -> [[UInt8]] {
        var generator = SeededGenerator(seed: seed)
        let all = (0 ..< count).map { _ in (0 ..< 20).map { _ in UInt8.random(in: 0 ... 255, using: &generator) } }
        return all.sorted { $0.lexicographicallyPrecedes($1) }
    }

    static func hex(_ bytes: [UInt8], upper: Bool = true) -> String {
        bytes.map { String(format: upper ? "%02X" : "%02x", $0) }.joined()
    }

    static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map {
            UInt8(String(decoding: digits[$0 ..< $0 + 2], as: UTF8.self), radix: 16) ?? 0
        }
    }

    static func sha1(_ password: String) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 20)
        Array(password.utf8).withUnsafeBytes { bytes in
            out.withUnsafeMutableBytes { PwnedPasswordDigest.digest(of: bytes, into: $0) }
        }
        return out
    }

    /// The ordered file's text: `HASH:COUNT` per digest, the count its index + 1.
    static func orderedText(_ digests: [[UInt8]], crlf: Bool, upper: Bool, finalNewline: Bool = true) -> String {
        let end = crlf ? "\r\n" : "\n"
        let lines = digests.enumerated().map { "\(hex($1, upper: upper)):\($0 + 1)" }
        return lines.joined(separator: end) + (finalNewline ? end : "")
    }

    func write(_ text: String, named name: String = "pwned.txt") throws -> String {
        let path = try temporary.freshPath(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func lookUp(_ digests: [[UInt8]], in source: any BreachSource) throws -> [Int] {
        try digests.joined().map { $0 }.withUnsafeBytes { try source.occurrences(ofDigests: $0, count: digests.count) }
    }

    @Test(
        "the ordered file: every probed line found with its count, the first and the last line too, misses are 0",
        arguments: [(false, true), (true, true), (false, false), (true, false)])
    func orderedFileFinds(crlf: Bool, upper: Bool) throws {
        // 6,000 lines (about 270 KB): far past the 16 KiB a search reads at once, so probes run.
        let digests = Self.digests(6000)
        let path = try write(Self.orderedText(digests, crlf: crlf, upper: upper))
        let source = try BreachSources.open(path)
        let wanted = [0, 1, 2999, 5998, 5999] + stride(from: 3, to: 6000, by: 97).map { $0 }
        let counts = try Self.lookUp(wanted.map { digests[$0] }, in: source)
        #expect(counts == wanted.map { $0 + 1 })
        let missing =
            Self.digests(50, seed: 7) + [[UInt8](repeating: 0, count: 20), [UInt8](repeating: 0xFF, count: 20)]
        #expect(try Self.lookUp(missing, in: source) == [Int](repeating: 0, count: missing.count))
    }

    @Test("a password's SHA-1 is found; looked up twice in one audit, both answered; the last line without its newline")
    func passwordsAndDuplicates() throws {
        let known = ["password", "123456", "correct horse battery staple"].map(Self.sha1)
        let all = (Self.digests(2000) + known).sorted { $0.lexicographicallyPrecedes($1) }
        let path = try write(Self.orderedText(all, crlf: true, upper: true, finalNewline: false))
        let source = try OrderedHashFile(path)
        let counts = try Self.lookUp([known[0], known[1], known[0], all[all.count - 1]], in: source)
        #expect(counts[0] > 0 && counts[0] == counts[2] && counts[1] > 0)
        #expect(counts[3] == all.count)
        // SHA-1("password") is the well-known 5BAA61E4…: the digest is the list's.
        #expect(Self.hex(known[0]) == "5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD8")
    }

    @Test("hashes bunched at one end (not uniform): the search halves when interpolation crawls, and still finds")
    func skewedFile() throws {
        var digests = Self.digests(4000).map { digest -> [UInt8] in
            var bunched = digest
            bunched[0] = 0
            bunched[1] = 0
            return bunched
        }
        digests += Self.digests(3, seed: 99).map {
            var high = $0; high[0] = 0xFF; return high
        }
        digests.sort { $0.lexicographicallyPrecedes($1) }
        let source = try OrderedHashFile(try write(Self.orderedText(digests, crlf: false, upper: true)))
        let wanted = [0, 1234, 3999, 4000, 4002]
        #expect(try Self.lookUp(wanted.map { digests[$0] }, in: source) == wanted.map { $0 + 1 })
    }

    @Test(
        "an empty file, a missing one, a text file, NTLM's file and the file ordered by prevalence: each refused, saying why"
    )
    func refusals() throws {
        let empty = try write("")
        #expect(throws: BreachLookupError.empty(path: empty)) { try OrderedHashFile(empty) }
        let missing = temporary.path + "/nothing-here.txt"
        do {
            _ = try BreachSources.open(missing)
            Issue.record("a missing file was opened")
        } catch {
            #expect("\(error)".contains(missing) && "\(error)".contains("No such file"), "\(error)")
        }
        let text = try write("hello, world\nthis is not a breach file\n")
        #expect(throws: BreachLookupError.self) { try OrderedHashFile(text) }
        do {
            _ = try OrderedHashFile(text)
        } catch {
            // Named by file and line, never quoted: the file is not pwtui's.
            #expect("\(error)".contains("line 1 is not HASH:COUNT") && !"\(error)".contains("hello"), "\(error)")
        }
        let ntlm = try write("8846F7EAEE8FB117AD06BDD830B7586C:2\n")
        do {
            _ = try OrderedHashFile(ntlm)
            Issue.record("NTLM's file was taken")
        } catch {
            #expect("\(error)".contains("NTLM"), "\(error)")
        }
        let byPrevalence = try write(Self.orderedText(Self.digests(200).reversed(), crlf: true, upper: true))
        do {
            _ = try OrderedHashFile(byPrevalence)
            Issue.record("a file out of order was taken")
        } catch {
            #expect("\(error)".contains("not ordered by hash") && "\(error)".contains("prevalence"), "\(error)")
        }
    }

    @Test(
        "a broken line met during a search is named by its file, not its byte offset (where the hash falls) nor quoted")
    func brokenLineDuringSearch() throws {
        let digests = Self.digests(3000)
        var lines = Self.orderedText(digests, crlf: false, upper: true).split(separator: "\n").map(String.init)
        lines[1500] = "not a hash at all"
        let source = try OrderedHashFile(try write(lines.joined(separator: "\n") + "\n"))
        do {
            _ = try Self.lookUp([digests[1501]], in: source)
            Issue.record("the broken line went unnoticed")
        } catch {
            #expect(
                "\(error)".contains("a line its search read") && !"\(error)".contains("not a hash at all")
                    && !"\(error)".contains("byte"), "\(error)")
            #expect((error as? BreachLookupError)?.isInputOutput == false, "65, a file that is no breach file")
        }
    }

    /// A directory as haveibeenpwned-downloader writes it: one file per prefix of `digests`,
    /// with padding lines (count 0) as the API adds them.
    /// What `error` says with the range directory's path taken out: a temporary path is random
    /// hex, which can hold any short text a test looks for (a run failed on "8AAAACD87B32").
    static func said(_ error: Any, besides directory: String) -> String {
        "\(error)".replacingOccurrences(of: directory, with: "DIRECTORY")
    }

    func rangeDirectory(_ digests: [[UInt8]], crlf: Bool = true, lowercaseNames: Bool = false) throws -> String {
        let directory = try temporary.freshPath("ranges")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let byPrefix = Dictionary(grouping: digests.enumerated()) { String(Self.hex($0.element).prefix(5)) }
        for (prefix, entries) in byPrefix {
            var lines = entries.map { "\(Self.hex($0.element).dropFirst(5)):\($0.offset + 1)" }
            lines.append("0000000000000000000000000000000000A:0")
            let name = (lowercaseNames ? prefix.lowercased() : prefix) + ".txt"
            try lines.joined(separator: crlf ? "\r\n" : "\n").write(
                toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        }
        return directory
    }

    @Test(
        "range files: found by prefix and suffix with their counts, CRLF or LF, names in either case; padding is not a breach"
    )
    func rangeFiles() throws {
        let digests = Self.digests(300)
        for (crlf, lower) in [(true, false), (false, true)] {
            let source = try BreachSources.open(try rangeDirectory(digests, crlf: crlf, lowercaseNames: lower))
            #expect(source is RangeDirectory)
            #expect(try Self.lookUp([digests[0], digests[299], digests[150]], in: source) == [1, 300, 151])
            var sibling = digests[10]
            sibling[19] ^= 0x01  // same prefix, another suffix: not there
            // The padding line's suffix under this prefix: listed, with a count of 0.
            let padding = Self.bytes(hex: Self.hex(digests[10]).prefix(5) + "0000000000000000000000000000000000A")
            #expect(try Self.lookUp([sibling, padding], in: source) == [0, 0])
        }
    }

    @Test(
        "an ordered file out of order past its first page, where the search reads: refused (65), never answered clean")
    func outOfOrderWhereRead() throws {
        let digests = Self.digests(3000)
        var lines = Self.orderedText(digests, crlf: false, upper: true).split(separator: "\n").map(String.init)
        // Two neighbours swapped deep in the file: the wanted one sits after a bigger hash.
        lines.swapAt(2000, 2001)
        let source = try OrderedHashFile(try write(lines.joined(separator: "\n") + "\n"))
        for wanted in [2000, 2001] {
            do {
                let found = try Self.lookUp([digests[wanted]], in: source)
                Issue.record("answered \(found) from a file out of order")
            } catch {
                #expect(
                    error as? BreachLookupError == .notOrdered(path: source.name, location: OrderedHashFile.searched),
                    "\(error)")
                #expect((error as? BreachLookupError)?.isInputOutput == false, "65, a file that is no breach file")
            }
        }
    }

    @Test("a range file that is a link is refused, its target never quoted; no message names a prefix")
    func rangeLink() throws {
        let digests = Self.digests(20)
        let directory = try rangeDirectory(digests)
        let prefix = String(Self.hex(digests[3]).prefix(5))
        let secret = try write("ssh-ed25519 AAAAthe-first-line-of-another-file\n", named: "private")
        try FileManager.default.removeItem(atPath: directory + "/\(prefix).txt")
        try FileManager.default.createSymbolicLink(atPath: directory + "/\(prefix).txt", withDestinationPath: secret)
        do {
            _ = try Self.lookUp([digests[3]], in: try BreachSources.open(directory))
            Issue.record("a linked range file was read")
        } catch {
            let said = Self.said(error, besides: directory)
            #expect(said.contains("symbolic link") && !said.contains("the-first-line"), "\(error)")
            #expect(!said.contains(prefix) && !said.contains(prefix.lowercased()), "\(error)")
        }
    }

    @Test("a range directory missing a prefix, with an empty range file or a broken line: each said, no prefix named")
    func rangeRefusals() throws {
        let digests = Self.digests(20)
        let directory = try rangeDirectory(digests)
        let source = try BreachSources.open(directory)
        let elsewhere = [UInt8](repeating: 0xFF, count: 20)
        #expect(throws: BreachLookupError.missingRange(directory: directory)) {
            try Self.lookUp([elsewhere], in: source)
        }
        #expect(!Self.said(BreachLookupError.missingRange(directory: directory), besides: directory).contains("FFFFF"))
        let prefix = String(Self.hex(digests[3]).prefix(5))
        try "".write(toFile: directory + "/\(prefix).txt", atomically: true, encoding: .utf8)
        #expect(throws: BreachLookupError.brokenRange(directory: directory, problem: "is empty", inputOutput: false)) {
            try Self.lookUp([digests[3]], in: source)
        }
        try "0123456789ABCDEF0123456789ABCDEF012:4\r\nGARBAGE\r\n".write(
            toFile: directory + "/\(prefix).txt", atomically: true, encoding: .utf8)
        do {
            _ = try Self.lookUp([digests[3]], in: source)
            Issue.record("the broken line went unnoticed")
        } catch {
            let said = Self.said(error, besides: directory)
            #expect(said.contains("line 2 that is not SUFFIX:COUNT") && !said.contains("GARBAGE"), "\(error)")
            #expect(!said.contains(prefix), "\(error)")
        }
    }
}
