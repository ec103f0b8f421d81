import FoundationEssentials
import Glibc

/// How many guesses an attacker who knows how people choose passwords needs, and a verdict.
///
/// This is zxcvbn's method (Wheeler, "zxcvbn: Low-Budget Password Strength Estimation", USENIX
/// Security 2016), written anew for bytes in protected memory. Counting character classes calls
/// `Password1234!` strong; an attacker tries `password` among the first guesses, capitalises it,
/// appends a sequence and a symbol. So the estimate first finds every piece of the password an
/// attacker would guess as a unit, each with the number of guesses it costs:
///
/// - words of ranked lists (common passwords, English, names; `PasswordDictionary`), any case,
///   l33t spellings and reversed: rank × case variants × substitution variants;
/// - keyboard walks (`qwertyuiop`, `1qaz2wsx`, keypad `78963214`): starting keys × turns ×
///   neighbours per key;
/// - repeats (`aaaa`, `abcabc`): the guesses for one copy × the number of copies;
/// - sequences (`abcdef`, `1234`, `9753`): a starting character × length;
/// - years and dates (`1985`, `19850412`, `12/04/85`): years around now × days;
///
/// and any other run of characters costs brute force over the character classes it uses. Then
/// it picks the cheapest way to cover the whole password with such pieces (dynamic programming
/// over end positions and piece counts): for `l` pieces, l! × the product of their guesses (the
/// attacker does not know the order) plus 10,000^(l-1) (does not know how many pieces either).
/// The result is a guess count; bits are its base-2 logarithm.
///
/// The password is never copied: every matcher reads the caller's buffer.
///
/// Only the first `examinedBytes` are judged, as zxcvbn tells its users to do: covering a password
/// of n bytes with pieces is O(n²) runs × O(n) piece counts, so 1,600 bytes took a minute and
/// an SSH key's 3,500 hex digits held the agent for longer (KeePassXC froze the same way on long
/// tokens, keepassxc #7712). The rest can only add guesses, so the prefix's estimate is a lower
/// bound: a long password is never called stronger than its start, and any secret is rated in
/// about a millisecond (docs/password-strength.md).
public struct PasswordStrength: Equatable, Sendable {
    /// The estimated number of guesses.
    public let guesses: Double
    /// log2(guesses), rounded down.
    public let bits: Int
    /// What makes it guessable (the costliest-to-ignore pattern found), for the warning line.
    public let weakness: String?

    public enum Verdict: String, Sendable {
        case weak, fair, strong
    }

    /// Bits at which a master password stops being weak and becomes strong. The vault file is
    /// attacked offline, at the speed of Argon2id: 2^40 guesses are months on a GPU farm at a
    /// moderate unlock cost; 2^60 are out of reach.
    public static let fairBits = 40
    public static let strongBits = 60
    /// How much of a password is judged: 100 bytes are 2^600 guesses of random lowercase, far
    /// past `strongBits`, so nothing a longer password holds can change a verdict to stronger.
    public static let examinedBytes = 100

    public var verdict: Verdict {
        bits < Self.fairBits ? .weak : bits < Self.strongBits ? .fair : .strong
    }

    /// The estimate ran without word lists (python3-zxcvbn is not installed): patterns only.
    public let withoutDictionary: Bool

    /// "weak (about 12 bits: a common word or password) — …", for the wizard, `init` and `passwd`.
    public var summary: String {
        var text = "\(verdict.rawValue) (about \(bits) bits"
        if verdict != .strong, let weakness { text += ": " + weakness }
        text += ")"
        if verdict == .weak { text += " — 4–5 random words are far stronger" }
        if withoutDictionary { text += " [no word list: install python3-zxcvbn for a better estimate]" }
        return text
    }

    /// Estimates from the UTF-8 bytes of a password (which the caller holds in protected memory).
    /// `referenceYear`: the year dates are guessed around.
    public init(
        utf8 password: UnsafeRawBufferPointer, dictionary: PasswordDictionary = .system,
        keyboards: [KeyboardLayout] = [.qwerty, .keypad], referenceYear: Int = PasswordStrength.currentYear
    ) {
        let finder = PatternFinder(
            password: Self.examinedPrefix(of: password), dictionary: dictionary, keyboards: keyboards,
            referenceYear: referenceYear)
        let best = finder.cheapestCover()
        guesses = best.guesses
        // Long passwords overflow a Double's guess count (infinity): far beyond any verdict.
        bits = best.guesses > 1 ? Int(min(log2(best.guesses), 1024)) : 0
        weakness = best.weakness
        withoutDictionary = dictionary.isEmpty
    }

    /// The first `examinedBytes` of `password`, cut before a character rather than inside one.
    public static func examinedPrefix(of password: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard password.count > examinedBytes else { return password }
        var end = examinedBytes
        while end > 0, password[end] & 0xC0 == 0x80 { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: password[..<end])
    }

    public static var currentYear: Int {
        Calendar(identifier: .gregorian).component(.year, from: Date())
    }
}

/// One piece of a password an attacker guesses as a unit: bytes `start ..< end`.
struct PasswordPattern {
    enum Kind: Equatable {
        case dictionary, spatial, repeated, sequence, year, date, bruteforce
    }

    let start: Int
    let end: Int
    let kind: Kind
    let guesses: Double

    var description: String {
        switch kind {
        case .dictionary: return "a common word or password"
        case .spatial: return "a keyboard pattern"
        case .repeated: return "repeated characters"
        case .sequence: return "a sequence like abc or 123"
        case .year: return "a year"
        case .date: return "a date"
        case .bruteforce: return ""
        }
    }
}

/// The matchers and the cheapest cover (see `PasswordStrength`).
struct PatternFinder {
    let password: UnsafeRawBufferPointer
    let dictionary: PasswordDictionary
    let keyboards: [KeyboardLayout]
    let referenceYear: Int

    /// zxcvbn's constants: a piece that is not the whole password costs at least this much.
    static let minimumGuessesSingleCharacter = 10.0
    static let minimumGuesses = 50.0
    /// Years within this distance of now are all about equally likely.
    static let minimumYearSpace = 20.0
    /// The cost of not knowing how many pieces there are.
    static let pieceCountFactor = 10_000.0

    init(
        password: UnsafeRawBufferPointer, dictionary: PasswordDictionary, keyboards: [KeyboardLayout],
        referenceYear: Int
    ) {
        self.password = password
        self.dictionary = dictionary
        self.keyboards = keyboards
        self.referenceYear = referenceYear
    }

    func cheapestCover() -> (guesses: Double, weakness: String?) {
        let count = password.count
        guard count > 0 else { return (1, nil) }
        var patterns = dictionaryPatterns() + spatialPatterns() + repeatPatterns() + sequencePatterns() + datePatterns()
        patterns = patterns.map { pattern in
            let wholePassword = pattern.start == 0 && pattern.end == count
            let floor =
                wholePassword
                ? 1 : pattern.end - pattern.start == 1 ? Self.minimumGuessesSingleCharacter : Self.minimumGuesses
            return PasswordPattern(
                start: pattern.start, end: pattern.end, kind: pattern.kind, guesses: max(pattern.guesses, floor))
        }
        let byEnd = Dictionary(grouping: patterns) { $0.end }
        let runs = BruteforceRuns(password)

        // best[k][l]: the cheapest product of guesses covering bytes 0 ..< k with l pieces, and
        // its last piece (the others are found by stepping back). Brute force never follows
        // brute force (one run, not two). Arrays, not dictionaries: this loop is the estimate's
        // whole cost, O(n³) over the examined bytes.
        struct Cover { var product: Double; var last: PasswordPattern? }
        var best = (0 ... count).map { [Cover?](repeating: nil, count: $0 + 1) }
        best[0][0] = Cover(product: 1, last: nil)
        func offer(_ pattern: PasswordPattern) {
            for pieces in 0 ... pattern.start {
                guard let cover = best[pattern.start][pieces] else { continue }
                if pattern.kind == .bruteforce, cover.last?.kind == .bruteforce { continue }
                let product = cover.product * pattern.guesses
                if let known = best[pattern.end][pieces + 1], known.product <= product { continue }
                best[pattern.end][pieces + 1] = Cover(product: product, last: pattern)
            }
        }
        for end in 1 ... count {
            for start in 0 ..< end { offer(runs.pattern(start, end)) }
            for pattern in byEnd[end] ?? [] { offer(pattern) }
        }
        var cheapest = (guesses: Double.infinity, pieces: 0)
        for (pieces, cover) in best[count].enumerated() {
            guard let cover else { continue }
            let guesses = factorial(pieces) * cover.product + pow(Self.pieceCountFactor, Double(pieces - 1))
            if guesses < cheapest.guesses { cheapest = (guesses, pieces) }
        }
        var chosen: [PasswordPattern] = []
        var (end, pieces) = (count, cheapest.pieces)
        while pieces > 0, let last = best[end][pieces]?.last {
            chosen.append(last)
            (end, pieces) = (last.start, pieces - 1)
        }
        let weakness = chosen.filter { $0.kind != .bruteforce }.max { $0.end - $0.start < $1.end - $1.start }?
            .description
        return (cheapest.guesses, weakness)
    }

    // MARK: Dictionary words

    func dictionaryPatterns() -> [PasswordPattern] {
        dictionary.matches(in: password).map { match in
            var guesses = Double(match.rank) * caseVariations(match.start, match.end) * substitutionVariations(match)
            if match.reversed { guesses *= 2 }
            return PasswordPattern(start: match.start, end: match.end, kind: .dictionary, guesses: guesses)
        }
    }

    /// How many ways to capitalise: 1 for lowercase, 2 for Capitalised / capitaL / UPPER, else
    /// the number of ways to choose which letters are upper case (at most half of them).
    func caseVariations(_ start: Int, _ end: Int) -> Double {
        var upper = 0, lower = 0
        for index in start ..< end {
            switch password[index] {
            case 0x41 ... 0x5A: upper += 1
            case 0x61 ... 0x7A: lower += 1
            default: break
            }
        }
        guard upper > 0 else { return 1 }
        let first = password[start], last = password[end - 1]
        let isUpper = { (byte: UInt8) in byte >= 0x41 && byte <= 0x5A }
        if lower == 0 || (upper == 1 && (isUpper(first) || isUpper(last))) { return 2 }
        return (1 ... min(upper, lower)).reduce(0) { $0 + binomial(upper + lower, $1) }
    }

    /// For each substitution used (`4` for `a`): the ways to choose which of the letter's places
    /// were substituted; 1 without substitutions.
    func substitutionVariations(_ match: PasswordDictionary.Match) -> Double {
        var pairs: [UInt16: (substituted: Int, plain: Int)] = [:]
        let length = match.end - match.start
        for offset in 0 ..< length {
            let byte = password[match.reversed ? match.end - 1 - offset : match.start + offset]
            let lower = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
            let letter = match.word[offset]
            if lower != letter {
                pairs[UInt16(byte) << 8 | UInt16(letter), default: (0, 0)].substituted += 1
            }
        }
        guard !pairs.isEmpty else { return 1 }
        var variations = 1.0
        for (key, counts) in pairs {
            let letter = UInt8(key & 0xFF)
            var plain = 0
            for offset in 0 ..< length where match.word[offset] == letter {
                let byte = password[match.reversed ? match.end - 1 - offset : match.start + offset]
                if (byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) == letter { plain += 1 }
            }
            if plain == 0 {
                variations *= 2
            } else {
                variations *= (1 ... min(counts.substituted, plain)).reduce(0) {
                    $0 + binomial(counts.substituted + plain, $1)
                }
            }
        }
        return variations
    }

    // MARK: Keyboard walks

    func spatialPatterns() -> [PasswordPattern] {
        keyboards.flatMap(spatialPatterns(on:))
    }

    func spatialPatterns(on keyboard: KeyboardLayout) -> [PasswordPattern] {
        var patterns: [PasswordPattern] = []
        var start = 0
        let count = password.count
        while start < count - 2 {
            var end = start + 1
            var turns = 0
            var lastDirection: Int?
            var shifted = keyboard.isShifted(password[start]) ? 1 : 0
            while end < count, let direction = keyboard.direction(from: password[end - 1], to: password[end]) {
                if direction != lastDirection { turns += 1 }
                lastDirection = direction
                if keyboard.isShifted(password[end]) { shifted += 1 }
                end += 1
            }
            if end - start >= 3 {
                patterns.append(
                    PasswordPattern(
                        start: start, end: end, kind: .spatial,
                        guesses: spatialGuesses(on: keyboard, length: end - start, turns: turns, shifted: shifted)))
                start = end
            } else {
                start += 1
            }
        }
        return patterns
    }

    func spatialGuesses(on keyboard: KeyboardLayout, length: Int, turns: Int, shifted: Int) -> Double {
        let starts = Double(keyboard.startingPositions), degree = keyboard.averageDegree
        var guesses = 0.0
        for i in 2 ... length {
            for j in 1 ... min(turns, i - 1) {
                guesses += binomial(i - 1, j - 1) * starts * pow(degree, Double(j))
            }
        }
        if shifted > 0 {
            let unshifted = length - shifted
            guesses *=
                unshifted == 0
                ? 2 : (1 ... min(shifted, unshifted)).reduce(0) { $0 + binomial(shifted + unshifted, $1) }
        }
        return guesses
    }

    // MARK: Repeats

    /// Runs of one unit repeated (`aaaa`, `abcabcabc`): the unit's own cost × the copies. From
    /// each place, the unit that repeats over the longest stretch (the shortest such unit).
    func repeatPatterns() -> [PasswordPattern] {
        var patterns: [PasswordPattern] = []
        let count = password.count
        var start = 0
        while start < count - 1 {
            var bestEnd = start, bestUnit = 0
            for unit in 1 ... (count - start) / 2 {
                var end = start + unit
                while end + unit <= count, (0 ..< unit).allSatisfy({ password[end + $0] == password[start + $0] }) {
                    end += unit
                }
                if end - start >= 2 * unit, end > bestEnd { (bestEnd, bestUnit) = (end, unit) }
            }
            guard bestUnit > 0 else {
                start += 1
                continue
            }
            let unit = UnsafeRawBufferPointer(rebasing: password[start ..< start + bestUnit])
            let inner = PatternFinder(
                password: unit, dictionary: dictionary, keyboards: keyboards, referenceYear: referenceYear)
            let unitGuesses = inner.cheapestCover().guesses
            patterns.append(
                PasswordPattern(
                    start: start, end: bestEnd, kind: .repeated,
                    guesses: unitGuesses * Double((bestEnd - start) / bestUnit)))
            start = bestEnd
        }
        return patterns
    }

    // MARK: Sequences

    /// Runs with one constant step of at most 5 (`abcd`, `1357`, `zyx`) among letters or digits.
    func sequencePatterns() -> [PasswordPattern] {
        var patterns: [PasswordPattern] = []
        let count = password.count
        var start = 0
        while start < count - 2 {
            let step = Int(password[start + 1]) - Int(password[start])
            var end = start + 2
            if step != 0, abs(step) <= 5, Self.sameClass(password[start], password[start + 1]) {
                while end < count, Int(password[end]) - Int(password[end - 1]) == step,
                    Self.sameClass(password[end], password[start])
                { end += 1 }
            }
            if end - start >= 3, step != 0, abs(step) <= 5 {
                let first = password[start]
                var base: Double =
                    Array("aAzZ019".utf8).contains(first) ? 4 : (first >= 0x30 && first <= 0x39) ? 10 : 26
                if step < 0 { base *= 2 }
                patterns.append(
                    PasswordPattern(start: start, end: end, kind: .sequence, guesses: base * Double(end - start)))
                start = end - 1
            } else {
                start += 1
            }
        }
        return patterns
    }

    private static func sameClass(_ a: UInt8, _ b: UInt8) -> Bool {
        func kind(_ byte: UInt8) -> Int {
            switch byte {
            case 0x30 ... 0x39: return 0
            case 0x61 ... 0x7A: return 1
            case 0x41 ... 0x5A: return 2
            default: return 3
            }
        }
        return kind(a) == kind(b) && kind(a) != 3
    }

    // MARK: Years and dates

    func datePatterns() -> [PasswordPattern] {
        var patterns: [PasswordPattern] = []
        let count = password.count
        let isDigit = { (index: Int) in index < count && self.password[index] >= 0x30 && self.password[index] <= 0x39 }
        func number(_ start: Int, _ length: Int) -> Int {
            (start ..< start + length).reduce(0) { $0 * 10 + Int(password[$1] - 0x30) }
        }
        func yearSpace(_ year: Int) -> Double { max(Double(abs(year - referenceYear)), Self.minimumYearSpace) }
        for start in 0 ..< count {
            // Years: 1900-2099 on their own.
            if start + 4 <= count, (start ..< start + 4).allSatisfy(isDigit) {
                let year = number(start, 4)
                if (1900 ... 2099).contains(year) {
                    patterns.append(
                        PasswordPattern(start: start, end: start + 4, kind: .year, guesses: yearSpace(year)))
                }
            }
            // Dates without separators: 4 to 8 digits read as day, month and year in some order.
            for length in 4 ... 8 where start + length <= count && (start ..< start + length).allSatisfy(isDigit) {
                if let year = dateYear(digitsAt: start, length: length, number: number) {
                    patterns.append(
                        PasswordPattern(start: start, end: start + length, kind: .date, guesses: 365 * yearSpace(year)))
                }
            }
            // With one separator used twice: 1-4 digits, separator, 1-2 digits, separator, 1-4 digits.
            for first in 1 ... 4
            where (start ..< min(start + first, count)).allSatisfy(isDigit) && start + first < count {
                let separator = password[start + first]
                guard Array(" -/\\_.".utf8).contains(separator) else { continue }
                for second in 1 ... 2 {
                    let secondStart = start + first + 1
                    guard (secondStart ..< secondStart + second).allSatisfy(isDigit), secondStart + second < count,
                        password[secondStart + second] == separator
                    else { continue }
                    let thirdStart = secondStart + second + 1
                    for third in 1 ... 4 where (thirdStart ..< thirdStart + third).allSatisfy(isDigit) {
                        let parts = [number(start, first), number(secondStart, second), number(thirdStart, third)]
                        let lengths = [first, second, third]
                        if let year = Self.dateYear(parts: parts, lengths: lengths) {
                            patterns.append(
                                PasswordPattern(
                                    start: start, end: thirdStart + third, kind: .date,
                                    guesses: 365 * yearSpace(year) * 4))
                        }
                    }
                }
            }
        }
        return patterns
    }

    /// The year of `length` digits read as a date (every split into three parts), or nil.
    private func dateYear(digitsAt start: Int, length: Int, number: (Int, Int) -> Int) -> Int? {
        for first in 1 ... 4 {
            for second in 1 ... 2 where first + second < length {
                let third = length - first - second
                guard third <= 4 else { continue }
                let parts = [
                    number(start, first), number(start + first, second), number(start + first + second, third),
                ]
                if let year = Self.dateYear(parts: parts, lengths: [first, second, third]) { return year }
            }
        }
        return nil
    }

    /// Year, month, day in the orders people write them (y-m-d, d-m-y, m-d-y); the year as written
    /// (4 digits, 1000-2050) or two digits (00-50: 2000s, else 1900s).
    static func dateYear(parts: [Int], lengths: [Int]) -> Int? {
        func year(_ index: Int) -> Int? {
            switch lengths[index] {
            case 4: return (1000 ... 2050).contains(parts[index]) ? parts[index] : nil
            case 2: return parts[index] <= 50 ? 2000 + parts[index] : 1900 + parts[index]
            default: return nil
            }
        }
        func isDay(_ index: Int) -> Bool { lengths[index] <= 2 && (1 ... 31).contains(parts[index]) }
        func isMonth(_ index: Int) -> Bool { lengths[index] <= 2 && (1 ... 12).contains(parts[index]) }
        if let y = year(0), isMonth(1), isDay(2) { return y }
        if let y = year(2), isMonth(1), isDay(0) { return y }
        if let y = year(2), isMonth(0), isDay(1) { return y }
        return nil
    }
}

/// Brute force over a run: every character drawn from the classes the run uses. Counted from
/// prefix sums, so a run's cost is O(1) however long it is (the cover asks for every run).
struct BruteforceRuns {
    /// For each class (lower, upper, digit, symbol, other) and each k, how many of bytes 0 ..< k
    /// are of that class; and how many of them start a character.
    private let classCounts: [[Int]]
    private let characterCounts: [Int]
    private static let poolSizes = [26, 26, 10, 33, 100]

    init(_ password: UnsafeRawBufferPointer) {
        var classes = [[Int]](repeating: [0], count: Self.poolSizes.count)
        var characters = [0]
        var running = [Int](repeating: 0, count: Self.poolSizes.count)
        var characterCount = 0
        for byte in password {
            let kind: Int
            switch byte {
            case 0x61 ... 0x7A: kind = 0
            case 0x41 ... 0x5A: kind = 1
            case 0x30 ... 0x39: kind = 2
            case 0x80...: kind = 4
            default: kind = 3
            }
            running[kind] += 1
            for index in classes.indices { classes[index].append(running[index]) }
            if byte & 0xC0 != 0x80 { characterCount += 1 }
            characters.append(characterCount)
        }
        classCounts = classes
        characterCounts = characters
    }

    func pattern(_ start: Int, _ end: Int) -> PasswordPattern {
        var pool = 0
        for (index, counts) in classCounts.enumerated() where counts[end] > counts[start] {
            pool += Self.poolSizes[index]
        }
        let characters = characterCounts[end] - characterCounts[start]
        let guesses = pow(Double(max(pool, 2)), Double(max(characters, 1)))
        let floor =
            characters == 1 ? PatternFinder.minimumGuessesSingleCharacter + 1 : PatternFinder.minimumGuesses + 1
        return PasswordPattern(start: start, end: end, kind: .bruteforce, guesses: max(guesses, floor))
    }
}

private func factorial(_ n: Int) -> Double {
    n < 2 ? 1 : (2 ... n).reduce(1.0) { $0 * Double($1) }
}

private func binomial(_ n: Int, _ k: Int) -> Double {
    guard k >= 0, k <= n else { return 0 }
    var result = 1.0
    for i in 0 ..< min(k, n - k) { result = result * Double(n - i) / Double(i + 1) }
    return result
}
