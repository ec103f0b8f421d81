import FoundationEssentials
import Glibc
import Platform

/// Ranked word lists for the strength estimate: common passwords, English words, names, surnames
/// and film and TV words, each ranked by how often it is used (rank 1 = most common), as zxcvbn
/// ships them. Debian installs zxcvbn's lists with the `python3-zxcvbn` package
/// (`frequency_lists.py`: one line per list, `"name": "word,word,...",`); pwtui reads that file
/// and needs nothing else from the package.
///
/// Lookup never copies the password: the words are kept sorted in one flat byte array, and a
/// match is found by narrowing a range of words one password byte at a time (the words sharing
/// the prefix read so far are contiguous in sorted order), straight from the caller's buffer.
/// Narrowing can follow several bytes at once, which is how l33t spellings (`p4$$w0rd`) and
/// reversed words (`drowssap`) are found without building any variant of the password.
public struct PasswordDictionary: Sendable {
    /// Where Debian's python3-zxcvbn puts the lists.
    public static let debianPath = "/usr/lib/python3/dist-packages/zxcvbn/frequency_lists.py"

    /// The system's lists, read once, on first use; empty (patterns only) when the file is absent.
    public static let system: PasswordDictionary = (try? load(from: debianPath)) ?? PasswordDictionary(lists: [:])

    /// A word found in a password: bytes `start ..< end`, the word's rank, and how it was spelled.
    public struct Match: Equatable, Sendable {
        public let start: Int
        public let end: Int
        public let rank: Int
        /// The dictionary word (lowercase ASCII), for counting substitutions.
        public let word: [UInt8]
        public let reversed: Bool
    }

    public enum LoadError: Error, CustomStringConvertible {
        case unreadable(path: String)
        case noLists(path: String)

        public var description: String {
            switch self {
            case .unreadable(let path): return "\(path) cannot be read as a regular file (install python3-zxcvbn)"
            case .noLists(let path): return "\(path) holds no word lists"
            }
        }
    }

    private let bytes: [UInt8]
    /// Word i of the sorted order is bytes[starts[i] ..< starts[i] + lengths[i]].
    private let starts: [Int32]
    private let lengths: [UInt8]
    private let ranks: [Int32]
    /// The lists' names and sizes, for tests and messages.
    public let listSizes: [String: Int]

    public var isEmpty: Bool { starts.isEmpty }
    public var wordCount: Int { starts.count }

    /// Builds from lists of words in order of frequency (rank 1 first). A word in several lists
    /// keeps its best rank. Words that are not printable ASCII, or longer than 255 bytes, are left
    /// out; upper case is folded.
    public init(lists: [String: [Substring]]) {
        var source: [UInt8] = []
        var entries: [Entry] = []
        var sizes: [String: Int] = [:]
        for (name, words) in lists {
            sizes[name] = words.count
            for (index, word) in words.enumerated() {
                entries.append(
                    Entry(start: Int32(source.count), length: Int32(word.utf8.count), rank: Int32(index + 1)))
                source.append(contentsOf: word.utf8)
            }
        }
        self.init(source: source, entries: entries, listSizes: sizes)
    }

    /// A word of a list: bytes of the source text, and its rank in its list.
    struct Entry {
        var start: Int32
        var length: Int32
        var rank: Int32
    }

    /// Sorts the words (bytewise, so words sharing a prefix are contiguous), keeps each word once
    /// with its best rank, and packs them.
    private init(source: [UInt8], entries: [Entry], listSizes: [String: Int]) {
        var source = source
        for index in source.indices where source[index] >= 0x41 && source[index] <= 0x5A { source[index] += 0x20 }
        var sorted = source.withUnsafeBufferPointer { text in
            entries.filter { entry in
                entry.length > 0 && entry.length < 256
                    && text[Int(entry.start) ..< Int(entry.start + entry.length)].allSatisfy { $0 > 0x20 && $0 < 0x7F }
            }
        }
        source.withUnsafeBufferPointer { text in
            guard let base = text.baseAddress else { return }
            sorted.sort { a, b in
                let order = memcmp(base + Int(a.start), base + Int(b.start), Int(min(a.length, b.length)))
                if order != 0 { return order < 0 }
                return a.length != b.length ? a.length < b.length : a.rank < b.rank
            }
        }
        var bytes: [UInt8] = []
        var starts: [Int32] = [], lengths: [UInt8] = [], ranks: [Int32] = []
        bytes.reserveCapacity(source.count)
        source.withUnsafeBufferPointer { text in
            guard let base = text.baseAddress else { return }
            var previous: Entry?
            for entry in sorted {
                if let previous, previous.length == entry.length,
                    memcmp(base + Int(previous.start), base + Int(entry.start), Int(entry.length)) == 0
                {
                    continue
                }
                previous = entry
                starts.append(Int32(bytes.count))
                lengths.append(UInt8(entry.length))
                ranks.append(entry.rank)
                bytes.append(contentsOf: text[Int(entry.start) ..< Int(entry.start + entry.length)])
            }
        }
        self.bytes = bytes
        self.starts = starts
        self.lengths = lengths
        self.ranks = ranks
        self.listSizes = listSizes
    }

    /// Reads zxcvbn's `frequency_lists.py`.
    public static func load(from path: String) throws(LoadError) -> PasswordDictionary {
        // Through the funnel (a FIFO or /dev/zero there must not hang or fill memory); the
        // lists are about 1 MB.
        guard let source = try? RegularFile.readIfPresent(path, limit: 64 << 20) else { throw .unreadable(path: path) }
        var entries: [Entry] = []
        var sizes: [String: Int] = [:]
        for list in frequencyListRanges(source) {
            var rank: Int32 = 0
            var wordStart = list.words.lowerBound
            for index in list.words.lowerBound ... list.words.upperBound
            where index == list.words.upperBound || source[index] == 0x2C {
                if index > wordStart {
                    rank += 1
                    entries.append(Entry(start: Int32(wordStart), length: Int32(index - wordStart), rank: rank))
                }
                wordStart = index + 1
            }
            sizes[list.name] = Int(rank)
        }
        guard !entries.isEmpty else { throw .noLists(path: path) }
        return PasswordDictionary(source: source, entries: entries, listSizes: sizes)
    }

    /// The lines `    "name": "a,b,c",` of zxcvbn's generated file: each list's name and the
    /// byte range of its comma-separated words.
    static func frequencyListRanges(_ source: [UInt8]) -> [(name: String, words: Range<Int>)] {
        var lists: [(name: String, words: Range<Int>)] = []
        var lineStart = 0
        let quote = UInt8(ascii: "\"")
        while lineStart < source.count {
            let lineEnd = source[lineStart...].firstIndex(of: 0x0A) ?? source.count
            var cursor = lineStart
            while cursor < lineEnd, source[cursor] == 0x20 { cursor += 1 }
            // "name": "words",
            if cursor < lineEnd, source[cursor] == quote,
                let nameEnd = source[(cursor + 1) ..< lineEnd].firstIndex(of: quote),
                nameEnd + 4 <= lineEnd, Array(source[nameEnd ..< nameEnd + 4]) == Array("\": \"".utf8),
                let wordsEnd = source[(nameEnd + 4) ..< lineEnd].lastIndex(of: quote)
            {
                let name = String(decoding: source[(cursor + 1) ..< nameEnd], as: UTF8.self)
                lists.append((name, (nameEnd + 4) ..< wordsEnd))
            }
            lineStart = lineEnd + 1
        }
        return lists
    }

    /// The lists of zxcvbn's file, as words (for tests and tools; `load` does not build these).
    public static func parseFrequencyLists(_ text: String) -> [String: [Substring]] {
        let source = Array(text.utf8)
        var lists: [String: [Substring]] = [:]
        for list in frequencyListRanges(source) {
            let words = String(decoding: source[list.words], as: UTF8.self)
            lists[list.name] = words.split(separator: ",")
        }
        return lists
    }

    /// The rank of `word` (lowercase), nil when absent.
    public func rank(of word: String) -> Int? {
        var result: Int?
        Array(word.utf8).withUnsafeBytes { buffer in
            for match in matches(in: buffer)
            where match.start == 0 && match.end == buffer.count && !match.reversed
                && Array(buffer) == match.word
            {
                result = match.rank
            }
        }
        return result
    }

    /// Every dictionary word in `password`, forwards and reversed, case-insensitive, with l33t
    /// substitutions. Words of one character are left out (they are better guessed as such).
    public func matches(in password: UnsafeRawBufferPointer) -> [Match] {
        guard !isEmpty else { return [] }
        var found: [Match] = []
        let count = password.count
        for start in 0 ..< count {
            // Forwards: password[start], password[start+1], ...
            walk(range: 0 ..< starts.count, depth: 0, next: { start + $0 < count ? password[start + $0] : nil }) {
                depth, index in
                found.append(
                    Match(start: start, end: start + depth, rank: Int(ranks[index]), word: word(index), reversed: false)
                )
            }
            // Backwards from the end `start + 1`: password[start], password[start-1], ...
            walk(range: 0 ..< starts.count, depth: 0, next: { start - $0 >= 0 ? password[start - $0] : nil }) {
                depth, index in
                guard depth > 2 else { return }  // a reversed short word is a forwards one, or noise
                found.append(
                    Match(
                        start: start + 1 - depth, end: start + 1, rank: Int(ranks[index]), word: word(index),
                        reversed: true))
            }
        }
        return found
    }

    private func word(_ index: Int) -> [UInt8] {
        let start = Int(starts[index])
        return Array(bytes[start ..< start + Int(lengths[index])])
    }

    /// Narrows `range` (words sharing the first `depth` bytes) by the next password byte and its
    /// l33t readings, reporting every word that ends exactly at the new depth.
    private func walk(range: Range<Int>, depth: Int, next: (Int) -> UInt8?, found: (Int, Int) -> Void) {
        guard let byte = next(depth) else { return }
        for candidate in Self.readings(of: byte) {
            let narrowed = narrow(range, depth: depth, to: candidate)
            guard !narrowed.isEmpty else { continue }
            // Sorted order puts the word that ends here first.
            if Int(lengths[narrowed.lowerBound]) == depth + 1, depth + 1 >= 2 { found(depth + 1, narrowed.lowerBound) }
            walk(range: narrowed, depth: depth + 1, next: next, found: found)
        }
    }

    /// The words of `range` whose byte at `depth` is `byte` (all of `range` are at least `depth` long
    /// and share their first `depth` bytes, so they are sorted by that byte, shorter words first).
    private func narrow(_ range: Range<Int>, depth: Int, to byte: UInt8) -> Range<Int> {
        func key(_ index: Int) -> Int {  // -1 for a word that ends before `depth`
            Int(lengths[index]) > depth ? Int(bytes[Int(starts[index]) + depth]) : -1
        }
        var low = range.lowerBound, high = range.upperBound
        while low < high {
            let middle = (low + high) / 2
            if key(middle) < Int(byte) { low = middle + 1 } else { high = middle }
        }
        let lower = low
        high = range.upperBound
        while low < high {
            let middle = (low + high) / 2
            if key(middle) <= Int(byte) { low = middle + 1 } else { high = middle }
        }
        return lower ..< low
    }

    /// What a password byte may stand for in a word: itself in lowercase, and the letters it
    /// spells in l33t (zxcvbn's table).
    static func readings(of byte: UInt8) -> [UInt8] {
        let lower = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
        switch byte {
        case UInt8(ascii: "4"), UInt8(ascii: "@"): return [lower, UInt8(ascii: "a")]
        case UInt8(ascii: "8"): return [lower, UInt8(ascii: "b")]
        case UInt8(ascii: "("), UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "<"):
            return [lower, UInt8(ascii: "c")]
        case UInt8(ascii: "3"): return [lower, UInt8(ascii: "e")]
        case UInt8(ascii: "6"), UInt8(ascii: "9"): return [lower, UInt8(ascii: "g")]
        case UInt8(ascii: "1"), UInt8(ascii: "|"): return [lower, UInt8(ascii: "i"), UInt8(ascii: "l")]
        case UInt8(ascii: "!"): return [lower, UInt8(ascii: "i")]
        case UInt8(ascii: "7"): return [lower, UInt8(ascii: "l"), UInt8(ascii: "t")]
        case UInt8(ascii: "0"): return [lower, UInt8(ascii: "o")]
        case UInt8(ascii: "$"), UInt8(ascii: "5"): return [lower, UInt8(ascii: "s")]
        case UInt8(ascii: "+"): return [lower, UInt8(ascii: "t")]
        case UInt8(ascii: "%"): return [lower, UInt8(ascii: "x")]
        case UInt8(ascii: "2"): return [lower, UInt8(ascii: "z")]
        default: return [lower]
        }
    }
}
