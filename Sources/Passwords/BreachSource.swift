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
/// `RangeDirectory.count(ofSuffixOf:inRange:source:)`, only the 5-digit prefixes leaving the machine.
/// None is built: this machine has no network.
public protocol BreachSource: AnyObject {
    /// What the report names as the source (a path).
    var name: String { get }
    /// For `count` digests of 20 bytes each, back to back in `digests` (the caller's protected
    /// memory), how often each password was seen; 0 for one never seen.
    func occurrences(ofDigests digests: UnsafeRawBufferPointer, count: Int) throws(BreachLookupError) -> [Int]
}

/// Why a breach source could not be read; each says what would do. A message names files and
/// lines, never a hash's digits, nor a line of the file it read (a breach file is not pwtui's: a
/// line is no business of a message, and a link could make it any file's): a range file's name
/// is the first five digits of the hash of the password looked up, and a byte offset in the
/// ordered file is where that hash falls, so neither is named.
public enum BreachLookupError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Opening or reading failed (nothing there, permissions, I/O).
    case unreadable(RegularFile.Failure)
    case empty(path: String)
    /// A line that is not `HASH:COUNT`. `location`: "line 3" (the first page), or "a line its
    /// search read" (past it: where is not said).
    case malformed(path: String, location: String, expected: String)
    /// The lines are not in ascending order of hash: the file ordered by prevalence, or not a
    /// Pwned Passwords file at all. Binary search over it would answer wrongly. `location` as for
    /// `malformed`.
    case notOrdered(path: String, location: String)
    /// A range directory without the file for a prefix: an interrupted download.
    case missingRange(directory: String)
    /// A range file that is empty, not a regular file, a link, unreadable, or with a line that is
    /// not `SUFFIX:COUNT` (`problem`, said without its name); `inputOutput`: a failed read.
    case brokenRange(directory: String, problem: String, inputOutput: Bool)

    public var description: String {
        switch self {
        case .unreadable(let failure):
            return "\(failure)"
        case .empty(let path):
            return "\(path) is empty: not a Pwned Passwords file (docs/audit.md says how to get one)"
        case .malformed(let path, let location, let expected):
            return "\(path): \(location) is not \(expected)"
        case .notOrdered(let path, let location):
            return "\(path) is not ordered by hash (at \(location) the hashes go down): "
                + "download the SHA-1 file ordered by hash, not by prevalence (docs/audit.md)"
        case .missingRange(let directory):
            return "\(directory) lacks the range file of a prefix a password needs: the download is incomplete "
                + "(a whole one has a file for each of the 1,048,576 prefixes; which one is not said, as its name is "
                + "the start of a password's hash); run haveibeenpwned-downloader again into the same directory"
        case .brokenRange(let directory, let problem, _):
            return "a range file in \(directory) \(problem) (which one is not said: its name is the start of a "
                + "password's hash); run haveibeenpwned-downloader again into the same directory"
        }
    }

    /// The exit status's family: an unusable file the user named is a usage problem, an I/O
    /// failure is I/O.
    public var isInputOutput: Bool {
        if case .unreadable(let failure) = self, case .system(_, _, let error) = failure, !error.isNotFound {
            return true
        }
        if case .brokenRange(_, _, let inputOutput) = self { return inputOutput }
        return false
    }
}
