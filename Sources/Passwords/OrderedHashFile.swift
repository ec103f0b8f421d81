import Platform
import VaultCrypto

/// Have I Been Pwned's Pwned Passwords as one file ordered by hash — `HASH:COUNT` lines, 40
/// hexadecimal digits of SHA-1, upper case as published (any case read), CRLF or LF — searched
/// where it lies, with no index built and nothing read whole.
///
/// The search. The file is about 40 GB of lines of about 45 bytes that vary in length (the
/// count's digits), so line n is not at a computable offset: the search runs over byte offsets.
/// It keeps a range [lo, hi) of offsets where the wanted line must start: lo is always a line's
/// start (every line before it has a smaller hash), and no line starting at or after hi can be
/// the one. A probe picks an offset p inside the range, reads a page from just before p, and
/// takes the first line that starts at or after p: its hash is bigger (hi moves down to it),
/// smaller (lo moves up to it), or the one. No line starting between p and the end of the range
/// moves hi down to p. Each probe costs one pread of 4 KiB; once the range is under 16 KiB, one
/// read takes it whole and its lines are compared in turn.
///
/// Where to probe. SHA-1 digests are uniformly distributed, so the place of a hash in the file is
/// close to its value's share of the key space: the probe goes where the hash's first 64 bits fall
/// between the keys known at lo and hi (interpolation search), which lands within a few hundred
/// kilobytes of the line in a 2 GB file on the first probe, and within a page after three or four.
/// A file that is not uniform (a short test file, a hand-made list) could make interpolation
/// crawl, so a probe that did not halve the range is followed by one at its middle: never worse
/// than twice plain binary search (which takes 17 probes to bring 2 GB down to the 16 KiB window,
/// 22 for 40 GB). A cold page cache costs a disk read per probe: three or four instead of 17 to
/// 22 is what keeps 1,000 passwords under a second there (Benchmarks/README.md: 0.28 s cold).
///
/// The digests are looked up in ascending order, each search starting from where the last ended
/// (lo never moves back), and the keys seen along the way must ascend: a file ordered by
/// prevalence, the other form HIBP publishes, is refused instead of answering wrongly.
public final class OrderedHashFile: BreachSource {
    public let name: String
    private let file: PositionedFile
    static let probeSize = 4096
    static let windowSize = 16 << 10
    /// Longer than any real line (40 digits, a colon, a count of at most 10 digits, CRLF).
    static let longestLine = 256

    public init(_ path: String) throws(BreachLookupError) {
        name = path
        do {
            file = try PositionedFile(path)
        } catch {
            throw .unreadable(error)
        }
        guard file.size > 0 else { throw .empty(path: path) }
        file.adviseRandomAccess()
        try checkFirstPage()
    }

    /// The first page says at once whether this is the right kind of file, before any search
    /// depends on it: not NTLM's 32 digits, not a text file named by mistake, and not the file
    /// ordered by prevalence (whose first lines are in no order of hash), which a search could
    /// otherwise read for a long time without meeting a line out of order.
    private func checkFirstPage() throws(BreachLookupError) {
        let page = try read(at: 0, count: Self.probeSize)
        var start = 0
        var number = 1
        var previous: [UInt8]?
        while start < page.count {
            guard let end = page[start...].firstIndex(of: UInt8(ascii: "\n")) else {
                // The page's last line, cut by the page's end, is read in full only when it is the first.
                if number == 1 {
                    let line = try read(at: 0, count: Self.longestLine)
                    let end = line.firstIndex(of: UInt8(ascii: "\n")) ?? line.endIndex
                    _ = try parse(line[..<end], at: "line 1")
                } else if page.count < Self.probeSize {
                    _ = try parse(page[start...], at: "line \(number)")
                }
                return
            }
            if end > start, !(end == start + 1 && page[start] == UInt8(ascii: "\r")) {
                let key = try parse(page[start ..< end], at: "line \(number)").nibbles
                if let previous, Self.compare(previous, key) > 0 {
                    throw .notOrdered(path: name, location: "line \(number)")
                }
                previous = key
            }
            start = end + 1
            number += 1
        }
    }

    public func occurrences(ofDigests digests: UnsafeRawBufferPointer, count: Int) throws(BreachLookupError) -> [Int] {
        let size = PwnedPasswordDigest.byteCount
        let order = (0 ..< count).sorted { a, b in
            Self.compare(
                UnsafeRawBufferPointer(rebasing: digests[(a * size) ..< (a * size + size)]),
                UnsafeRawBufferPointer(rebasing: digests[(b * size) ..< (b * size + size)])) < 0
        }
        var results = [Int](repeating: 0, count: count)
        var start = Bound(offset: 0, key: nil)
        for index in order {
            let digest = UnsafeRawBufferPointer(rebasing: digests[(index * size) ..< (index * size + size)])
            let (found, lower) = try search(digest, from: start)
            results[index] = found
            start = lower
        }
        return results
    }

    /// A line start and its key (nil: the file's start, before any line was read).
    struct Bound {
        var offset: Int
        var key: [UInt8]?
    }

    /// How often `digest` was seen, and the lower bound for the next (larger) digest.
    private func search(_ digest: UnsafeRawBufferPointer, from start: Bound) throws(BreachLookupError) -> (Int, Bound) {
        var lo = start
        var hi = file.size
        var hiKey: [UInt8]? = nil
        var bisectNext = false
        while hi - lo.offset > Self.windowSize {
            let width = hi - lo.offset
            let probe: Int
            if bisectNext {
                probe = lo.offset + width / 2
            } else {
                probe = Self.interpolate(digest, lo: lo, hi: hi, hiKey: hiKey)
            }
            // From the byte before the probe: a line that starts exactly at the probe is seen.
            // Read with up to a line before it, so that the line the probe takes and the one
            // before it are both whole, and their order verified with the rest of the page.
            let back = min(Self.longestLine, probe - 1)
            let wider = try read(at: probe - 1 - back, count: back + Self.probeSize)
            try verifyOrder(in: wider)
            let page = Array(wider[min(back, wider.count)...])
            guard let newline = page.firstIndex(of: UInt8(ascii: "\n")) else {
                if probe - 1 + page.count >= file.size {
                    hi = probe  // no line starts in [probe, end of file)
                    continue
                }
                throw .malformed(path: name, location: Self.searched, expected: PwnedLine.orderedExpectation)
            }
            let lineStart = probe + newline  // page[0] is at probe - 1
            if lineStart >= hi {
                hi = probe
            } else {
                let key = try line(at: lineStart, in: page, pageStart: probe - 1)
                let order = Self.compare(key.nibbles, digest)
                try checkOrder(key.nibbles, after: lo.key, before: hiKey, at: lineStart)
                if order == 0 { return (key.count, lo) }
                if order < 0 {
                    lo = Bound(offset: lineStart, key: key.nibbles)
                } else {
                    hi = lineStart
                    hiKey = key.nibbles
                }
            }
            bisectNext = !bisectNext && hi - lo.offset > width / 2
        }
        return try scan(digest, from: lo, to: hi, hiKey: hiKey)
    }

    /// Where a line met during a search is, in a message: not its byte offset, which tells
    /// where the hash looked up falls in the file (`BreachLookupError`).
    static let searched = "a line its search read (past the first page; where is not said)"

    /// The lines starting in [lo, hi), read at once and compared in turn — every one, also past
    /// the answer, each above the one before and below the key at `hi` (`hiKey`): a file out of
    /// order where it was read is refused, never answered from.
    private func scan(_ digest: UnsafeRawBufferPointer, from lo: Bound, to hi: Int, hiKey: [UInt8]?)
        throws(BreachLookupError) -> (Int, Bound)
    {
        let window = try read(at: lo.offset, count: hi - lo.offset + Self.longestLine)
        var start = 0
        var previous = lo.key
        var lower = lo
        var answer: (Int, Bound)?
        while start < hi - lo.offset, start < window.count {
            let end = window[start...].firstIndex(of: UInt8(ascii: "\n"))
            if end == nil, lo.offset + window.count < file.size {
                throw .malformed(path: name, location: Self.searched, expected: PwnedLine.orderedExpectation)
            }
            let lineEnd = end ?? window.endIndex
            if lineEnd == start || (lineEnd == start + 1 && window[start] == UInt8(ascii: "\r")) {
                // A blank line: the file's last line ending twice. Nothing to compare.
                start = lineEnd + 1
                continue
            }
            let key = try parse(window[start ..< lineEnd], at: Self.searched)
            if let previous, Self.compare(previous, key.nibbles) > 0 {
                throw .notOrdered(path: name, location: Self.searched)
            }
            if let hiKey, Self.compare(key.nibbles, hiKey) > 0 {
                throw .notOrdered(path: name, location: Self.searched)
            }
            previous = key.nibbles
            if answer == nil {
                let order = Self.compare(key.nibbles, digest)
                if order == 0 {
                    answer = (key.count, lower)
                } else if order > 0 {
                    answer = (0, lower)
                } else {
                    lower = Bound(offset: lo.offset + start, key: key.nibbles)
                }
            }
            start = lineEnd + 1
        }
        return answer ?? (0, lower)
    }

    /// The probe: where the digest's first 64 bits fall between the keys at lo and hi, kept
    /// strictly inside the range.
    static func interpolate(_ digest: UnsafeRawBufferPointer, lo: Bound, hi: Int, hiKey: [UInt8]?) -> Int {
        let low = lo.key.map(prefix) ?? 0
        let high = hiKey.map(prefix) ?? UInt64.max
        var target: UInt64 = 0
        for index in 0 ..< 16 { target = target << 4 | UInt64(PwnedLine.nibble(of: digest, at: index)) }
        let width = hi - lo.offset
        guard high > low else { return lo.offset + width / 2 }
        let share = Double(min(max(target, low), high) - low) / Double(high - low)
        let offset = lo.offset + Int(share * Double(width))
        return min(max(offset, lo.offset + 1), hi - 1)
    }

    /// The first 16 nibbles of a key as a number.
    static func prefix(_ nibbles: [UInt8]) -> UInt64 {
        nibbles.prefix(16).reduce(0) { $0 << 4 | UInt64($1) }
    }

    /// The line starting at `offset`, from the page read at `pageStart` (read again when it runs
    /// past the page).
    private func line(at offset: Int, in page: [UInt8], pageStart: Int) throws(BreachLookupError) -> (
        nibbles: [UInt8], count: Int
    ) {
        let local = offset - pageStart
        if let end = page[local...].firstIndex(of: UInt8(ascii: "\n")) {
            return try parse(page[local ..< end], at: Self.searched)
        }
        if pageStart + page.count >= file.size {
            return try parse(page[local...], at: Self.searched)
        }
        let again = try read(at: offset, count: Self.longestLine)
        let end = again.firstIndex(of: UInt8(ascii: "\n")) ?? again.endIndex
        return try parse(again[..<end], at: Self.searched)
    }

    private func parse(_ line: ArraySlice<UInt8>, at location: String) throws(BreachLookupError) -> (
        nibbles: [UInt8], count: Int
    ) {
        guard let parsed = PwnedLine.parse(line, hexDigits: 40) else {
            var expected = PwnedLine.orderedExpectation
            if PwnedLine.parse(line, hexDigits: 32) != nil {
                expected += "; this looks like the NTLM file, and pwtui reads the SHA-1 one"
            }
            throw .malformed(path: name, location: location, expected: expected)
        }
        return parsed
    }

    /// Every whole line of a page a probe read, in ascending order of hash: a search answers only
    /// from a file in order wherever it looked (two lines swapped beside the one it probes would
    /// otherwise send it the wrong way, and a breached password would be reported clean).
    private func verifyOrder(in page: [UInt8]) throws(BreachLookupError) {
        guard let first = page.firstIndex(of: UInt8(ascii: "\n")) else { return }
        var start = first + 1
        var previous: [UInt8]?
        while start < page.count, let end = page[start...].firstIndex(of: UInt8(ascii: "\n")) {
            defer { start = end + 1 }
            if end == start || (end == start + 1 && page[start] == UInt8(ascii: "\r")) { continue }
            let key = try parse(page[start ..< end], at: Self.searched).nibbles
            if let previous, Self.compare(previous, key) > 0 {
                throw .notOrdered(path: name, location: Self.searched)
            }
            previous = key
        }
    }

    private func checkOrder(_ key: [UInt8], after low: [UInt8]?, before high: [UInt8]?, at offset: Int)
        throws(BreachLookupError)
    {
        if let low, Self.compare(low, key) > 0 {
            throw .notOrdered(path: name, location: Self.searched)
        }
        if let high, Self.compare(key, high) > 0 {
            throw .notOrdered(path: name, location: Self.searched)
        }
    }

    private func read(at offset: Int, count: Int) throws(BreachLookupError) -> [UInt8] {
        do {
            return try file.bytes(at: offset, count: count)
        } catch {
            throw .unreadable(error)
        }
    }

    /// A line's key (40 nibbles) against a digest (20 bytes): negative, zero or positive.
    static func compare(_ nibbles: [UInt8], _ digest: UnsafeRawBufferPointer) -> Int {
        for index in 0 ..< 40 {
            let other = PwnedLine.nibble(of: digest, at: index)
            if nibbles[index] != other { return nibbles[index] < other ? -1 : 1 }
        }
        return 0
    }

    static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        for index in 0 ..< min(a.count, b.count) where a[index] != b[index] { return a[index] < b[index] ? -1 : 1 }
        return 0
    }

    static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        for index in 0 ..< min(a.count, b.count) where a[index] != b[index] { return a[index] < b[index] ? -1 : 1 }
        return 0
    }
}
