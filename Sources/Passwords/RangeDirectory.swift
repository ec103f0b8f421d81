import Platform
import VaultCrypto

/// Have I Been Pwned's Pwned Passwords as k-anonymity range files in one directory, as
/// haveibeenpwned-downloader writes them (`-s false`): 1,048,576 files named by the first five
/// hexadecimal digits of the SHA-1 (`21BD1.txt`; without `.txt` or in lower case also found),
/// each with `SUFFIX:COUNT` lines for the remaining 35 digits — the online API's answer for that
/// prefix, stored. A lookup reads one file of some 30 KB, once per prefix however many
/// passwords share it. A count of 0 is the API's padding, not a breach.
public final class RangeDirectory: BreachSource {
    public let name: String

    public init(_ directory: String) {
        name = directory
    }

    public func occurrences(ofDigests digests: UnsafeRawBufferPointer, count: Int) throws(BreachLookupError) -> [Int] {
        let size = PwnedPasswordDigest.byteCount
        var byPrefix: [String: [Int]] = [:]
        for index in 0 ..< count {
            let digest = UnsafeRawBufferPointer(rebasing: digests[(index * size) ..< (index * size + size)])
            byPrefix[Self.prefix(of: digest), default: []].append(index)
        }
        var results = [Int](repeating: 0, count: count)
        for (prefix, indices) in byPrefix {
            let lines = try rangeFile(prefix)
            for index in indices {
                let digest = UnsafeRawBufferPointer(rebasing: digests[(index * size) ..< (index * size + size)])
                results[index] = try Self.count(ofSuffixOf: digest, inRange: lines, source: name)
            }
        }
        return results
    }

    /// How often the password of `digest` was seen, from the lines of its prefix's range (a
    /// file here; the online API's answer would be read the same way); 0 when it is not there.
    /// `source`: the directory (or the API) a broken line is blamed on, never the range's name.
    public static func count(ofSuffixOf digest: UnsafeRawBufferPointer, inRange lines: [UInt8], source: String)
        throws(BreachLookupError) -> Int
    {
        var start = 0
        var number = 0
        while start < lines.count {
            let end = lines[start...].firstIndex(of: UInt8(ascii: "\n")) ?? lines.endIndex
            number += 1
            let line = lines[start ..< end]
            start = end + 1
            if line.isEmpty || line == [UInt8(ascii: "\r")] { continue }
            guard let parsed = PwnedLine.parse(line, hexDigits: 35) else {
                // The range is not named: its name is the prefix (see `BreachLookupError`).
                throw .brokenRange(
                    directory: source,
                    problem: "has a line \(number) that is not \(PwnedLine.rangeExpectation)", inputOutput: false)
            }
            if (0 ..< 35).allSatisfy({ parsed.nibbles[$0] == PwnedLine.nibble(of: digest, at: $0 + 5) }) {
                return parsed.count
            }
        }
        return 0
    }

    /// The five hexadecimal digits a range is named by, upper case as the downloader writes them
    /// (the only part of a digest that would leave the machine with the online API).
    static func prefix(of digest: UnsafeRawBufferPointer) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: (0 ..< 5).map { digits[Int(PwnedLine.nibble(of: digest, at: $0))] }, as: UTF8.self)
    }

    /// The bytes of the range file for `prefix`.
    private func rangeFile(_ prefix: String) throws(BreachLookupError) -> [UInt8] {
        for name in [prefix + ".txt", prefix, prefix.lowercased() + ".txt", prefix.lowercased()] {
            let path = self.name + "/" + name
            let bytes: [UInt8]?
            do {
                // A link is refused: the downloader writes regular files, and a link could
                // make a range file any file of the user's.
                bytes = try RegularFile.readIfPresent(path, links: .refuse)
            } catch {
                throw .brokenRange(
                    directory: self.name, problem: Self.problem(error), inputOutput: Self.isInputOutput(error))
            }
            guard let bytes else { continue }
            // Every prefix has hundreds of hashes: an empty file is a download cut short.
            guard !bytes.isEmpty else {
                throw .brokenRange(directory: self.name, problem: "is empty", inputOutput: false)
            }
            return bytes
        }
        throw .missingRange(directory: name)
    }

    /// What was wrong with a range file, without its path (`BreachLookupError.brokenRange`).
    private static func problem(_ failure: RegularFile.Failure) -> String {
        switch failure {
        case .notRegular(_, let kind): "is \(kind), not a regular file"
        case .symbolicLink: "is a symbolic link, which is not followed (replace it with the file)"
        case .tooLarge(_, _, let limit): "is larger than \(limit) bytes"
        case .system(_, let operation, let error): "could not be read (\(operation) failed: \(error))"
        }
    }

    private static func isInputOutput(_ failure: RegularFile.Failure) -> Bool {
        if case .system(_, _, let error) = failure { return !error.isNotFound }
        return false
    }
}
