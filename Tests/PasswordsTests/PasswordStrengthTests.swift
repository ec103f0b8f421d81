import Foundation
import Testing
import VaultCrypto
@testable import Passwords

/// The strength estimate against the patterns attackers try first (issue 9, fix 9), driven by the
/// ranked lists Debian ships in python3-zxcvbn.
@Suite struct PasswordStrengthTests {
    /// Read once for the suite (sorting 100,000 words is slow in a debug build).
    static let loaded = try? PasswordDictionary.load(from: PasswordDictionary.debianPath)

    /// A FIFO (or /dev/zero) where the word lists should be is unreadable at once, not a hang.
    @Test func aFIFOForTheWordListsIsUnreadable() throws {
        let directory = NSTemporaryDirectory() + "pwtui-fifo-words-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(mkfifo(directory + "/frequency_lists.py", 0o600) == 0)
        #expect(throws: PasswordDictionary.LoadError.self) {
            try PasswordDictionary.load(from: directory + "/frequency_lists.py")
        }
        #expect(throws: PasswordDictionary.LoadError.self) { try PasswordDictionary.load(from: "/dev/zero") }
    }

    static func dictionary() throws -> PasswordDictionary {
        try #require(loaded, "\(PasswordDictionary.debianPath) is missing: `make deps` installs python3-zxcvbn")
    }

    static func lists() throws -> [String: [Substring]] {
        let text = try String(contentsOfFile: PasswordDictionary.debianPath, encoding: .utf8)
        return PasswordDictionary.parseFrequencyLists(text)
    }

    func strength(_ text: String, _ dictionary: PasswordDictionary) -> PasswordStrength {
        Array(text.utf8).withUnsafeBytes { PasswordStrength(utf8: $0, dictionary: dictionary, referenceYear: 2026) }
    }

    @Test func theIssuesWeakPasswordsAreWeak() throws {
        let dictionary = try Self.dictionary()
        for password in [
            "Password1234!", "qwertyuiop", "19850412", "aaaaaaaaaaaa", "correcthorse", "hunter2",
            "P@ssw0rd", "1qaz2wsx", "drowssap", "12/04/1985", "abcdefghijk", "Summer2024!", "iloveyou123",
        ] {
            let result = strength(password, dictionary)
            #expect(result.verdict == .weak, "\(password): \(result.bits) bits")
        }
        #expect(strength("Password1234!", dictionary).weakness == "a common word or password")
        #expect(strength("qwertyuiop", dictionary).bits < 10)
    }

    @Test func theMostCommonPasswordsOfTheListAreWeakEvenDressedUp() throws {
        let dictionary = try Self.dictionary()
        let passwords = try #require(try Self.lists()["passwords"])
        #expect(passwords.count > 10_000)
        for word in passwords.prefix(2_000) {
            for variant in [
                String(word), word.prefix(1).uppercased() + word.dropFirst() + "1!", String(word.reversed()),
            ] {
                let result = strength(variant, dictionary)
                #expect(result.verdict == .weak, "\(variant): \(result.bits) bits")
            }
        }
    }

    @Test func twoCommonWordsAreWeakAndFiveRandomOnesStrong() throws {
        let dictionary = try Self.dictionary()
        let english = try #require(try Self.lists()["english_wikipedia"])
        for index in stride(from: 0, to: 3_000, by: 7) {
            let pair = english[index] + english[index + 1]
            #expect(strength(String(pair), dictionary).verdict == .weak, "\(pair)")
        }
        for _ in 0 ..< 100 {
            let words = (0 ..< 5).map { _ in english[Int.random(in: 0 ..< english.count)] }
            let phrase = words.joined(separator: " ")
            #expect(
                strength(phrase, dictionary).verdict == .strong, "\(phrase): \(strength(phrase, dictionary).bits) bits")
        }
    }

    @Test func generatedPasswordsAreStrong() throws {
        let dictionary = try Self.dictionary()
        for _ in 0 ..< 200 {
            let password = try PasswordGenerator.generate()
            let result = password.withUnsafeBytes { PasswordStrength(utf8: $0, dictionary: dictionary) }
            #expect(result.verdict == .strong, "\(result.bits) bits")
        }
        let printable = Array(33 ... 126).map(UInt8.init)
        for _ in 0 ..< 300 {
            let random = (0 ..< 16).map { _ in printable[Int.random(in: 0 ..< printable.count)] }
            let result = random.withUnsafeBytes { PasswordStrength(utf8: $0, dictionary: dictionary) }
            #expect(result.verdict == .strong, "\(String(decoding: random, as: UTF8.self)): \(result.bits) bits")
        }
    }

    @Test func patternsAreFoundWithoutADictionary() {
        let none = PasswordDictionary(lists: [:])
        #expect(strength("qwertyuiop", none).verdict == .weak, "a keyboard walk")
        #expect(strength("zxcvbnm,./", none).verdict == .weak)
        #expect(strength("1qaz2wsx3edc", none).verdict == .weak, "down the columns")
        #expect(strength("7896321478", none).verdict == .weak, "the keypad")
        let keypadWalk = Array("7896321478".utf8).withUnsafeBytes {
            PasswordStrength(utf8: $0, dictionary: none, referenceYear: 2026)
        }
        let qwertyOnly = Array("7896321478".utf8).withUnsafeBytes {
            PasswordStrength(utf8: $0, dictionary: none, keyboards: [.qwerty], referenceYear: 2026)
        }
        #expect(
            keypadWalk.bits < qwertyOnly.bits && keypadWalk.weakness == "a keyboard pattern",
            "\(keypadWalk) \(qwertyOnly)")
        #expect(strength("19850412", none).verdict == .weak, "a date")
        #expect(strength("aaaaaaaaaaaaaaaaaaaa", none).verdict == .weak, "a repeat")
        #expect(strength("abcabcabcabcabcabc", none).verdict == .weak)
        #expect(strength("0123456789", none).verdict == .weak, "a sequence")
        #expect(strength("Xk9#mQ2!vR", none).bits > strength("xk9mq2vr", none).bits)
        #expect(strength("", none).bits == 0)
        let long = String(repeating: "Xk9#mQ2!vR7@pL4z", count: 40) + "end"
        #expect(strength(long, none).verdict == .strong, "a guess count beyond a Double's range is strong, not a crash")
    }

    @Test func theDictionaryFindsCaseL33tAndReversedSpellings() throws {
        let dictionary = PasswordDictionary(lists: ["passwords": ["password", "dragon"], "english": ["the", "horse"]])
        #expect(dictionary.rank(of: "dragon") == 2)
        #expect(dictionary.rank(of: "horse") == 2)
        #expect(dictionary.rank(of: "cat") == nil)
        let matches = Array("xP4$$w0rDnogard".utf8).withUnsafeBytes { dictionary.matches(in: $0) }
        #expect(matches.contains { $0.start == 1 && $0.end == 9 && $0.rank == 1 && !$0.reversed })
        #expect(matches.contains { $0.start == 9 && $0.end == 15 && $0.rank == 2 && $0.reversed })
    }
}
