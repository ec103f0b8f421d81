import Platform

/// Where `pwtui audit` looks a password up in Have I Been Pwned's Pwned Passwords: a source
/// answers, for SHA-1 digests of passwords, how often each was seen in breaches (0: never).
///
/// Two offline forms are read (docs/audit.md says how to get them):
/// - `OrderedHashFile`: the one file ordered by hash, `HASH:COUNT` lines, searched in place;
/// - `RangeDirectory`: the k-anonymity range files, one per 5-digit prefix, `SUFFIX:COUNT` lines,
///   as haveibeenpwned-downloader writes them.
///
/// The online range API (`GET /range/{prefix}`) answers in the range files' form, so a backend
/// for it would be one more source: it would fetch each prefix once and read the answer with
/// `RangeDirectory.count(ofSuffixOf:inRange:)`, only the 5-digit prefixes leaving the machine.
/// None is built: this machine has no network.
public protocol BreachSource: AnyObject {
    /// What the report names as the source (a path).
    var name: String { get }
    /// For `count` digests of 20 bytes each, back to back in `digests` (the caller's protected
    /// memory), how often each password was seen; 0 for one never seen.
    func occurrences(ofDigests digests: UnsafeRawBufferPointer, count: Int) throws(BreachLookupError) -> [Int]
}

/// Why a breach source could not be read; each says what would do.
public enum BreachLookupError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Opening or reading failed (nothing there, permissions, I/O).
    case unreadable(RegularFile.Failure)
    case empty(path: String)
    /// A line that is not `HASH:COUNT` (or `SUFFIX:COUNT` in a range file). `location`: "line 3"
    /// or "the line at byte 1048576"; `line`: its start, escaped, for the message.
    case malformed(path: String, location: String, line: String, expected: String)
    /// The lines are not in ascending order of hash: the file ordered by prevalence, or not a
    /// Pwned Passwords file at all. Binary search over it would answer wrongly.
    case notOrdered(path: String, location: String)
    /// A range directory without the file for one prefix: an interrupted download.
    case missingRange(directory: String, prefix: String)

    public var description: String {
        switch self {
        case .unreadable(let failure):
            return "\(failure)"
        case .empty(let path):
            return "\(path) is empty: not a Pwned Passwords file (docs/audit.md says how to get one)"
        case .malformed(let path, let location, let line, let expected):
            return "\(path): \(location) is not \(expected): \"\(line)\""
        case .notOrdered(let path, let location):
            return "\(path) is not ordered by hash (at \(location) the hashes go down): "
                + "download the SHA-1 file ordered by hash, not by prevalence (docs/audit.md)"
        case .missingRange(let directory, let prefix):
            return "\(directory) has no range file for the prefix \(prefix) (\(prefix).txt): the download is "
                + "incomplete; run haveibeenpwned-downloader again into the same directory"
        }
    }

    /// The exit status's family: an unusable file the user named is a usage problem, an I/O
    /// failure is I/O.
    public var isInputOutput: Bool {
        if case .unreadable(let failure) = self, case .system(_, _, let error) = failure, !error.isNotFound {
            return true
        }
        return false
    }
}

/// Choosing the backend for a path: a directory holds range files, a file is the ordered one.
public enum BreachSources {
    public static func open(_ path: String) throws(BreachLookupError) -> any BreachSource {
        let status: FileStatus
        do {
            status = try FileSystem.status(path)
        } catch {
            let operation = error.isNotFound ? "opening" : "reading"
            throw .unreadable(.system(path: path, operation: operation, error))
        }
        if status.kind == .directory { return RangeDirectory(path) }
        return try OrderedHashFile(path)
    }
}

/// One `HASH:COUNT` line's parts, the hash compared digit by digit with a digest's nibbles, so
/// neither is ever turned into text.
enum PwnedLine {
    /// The value of one hexadecimal digit (either case), nil for anything else.
    static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    /// Nibble `index` (0 to 39) of a 20-byte digest.
    static func nibble(of digest: UnsafeRawBufferPointer, at index: Int) -> UInt8 {
        let byte = digest[index / 2]
        return index % 2 == 0 ? byte >> 4 : byte & 0x0F
    }

    /// `line` (without its end) as `hexDigits` hex digits, a colon and a decimal count: the
    /// digits' nibbles and the count; nil when it is not that.
    static func parse(_ line: ArraySlice<UInt8>, hexDigits: Int) -> (nibbles: [UInt8], count: Int)? {
        var end = line.endIndex
        if end > line.startIndex, line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let colon = line.startIndex + hexDigits
        guard end > colon + 1, line[colon] == UInt8(ascii: ":") else { return nil }
        var nibbles = [UInt8]()
        nibbles.reserveCapacity(hexDigits)
        for byte in line[line.startIndex ..< colon] {
            guard let value = nibble(byte) else { return nil }
            nibbles.append(value)
        }
        var count = 0
        for byte in line[(colon + 1) ..< end] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, overflow) = count.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            count = times &+ Int(byte - UInt8(ascii: "0"))
        }
        return (nibbles, count)
    }

    /// The start of a line, printable, for a message (a breach file holds nothing secret).
    static func excerpt(_ line: ArraySlice<UInt8>) -> String {
        let shown = line.prefix(60).map { byte -> String in
            byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
        }
        return shown.joined() + (line.count > 60 ? "…" : "")
    }

    static let orderedExpectation = "HASH:COUNT (a SHA-1 in 40 hexadecimal digits, a colon, a count)"
    static let rangeExpectation = "SUFFIX:COUNT (the 35 hexadecimal digits after the prefix, a colon, a count)"
}
