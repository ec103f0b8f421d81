import Foundation
import ServiceMatching
import Synchronization
import TUI
import VaultCrypto
import VaultModel

// Measures what issue "Foundation" asks of the vault, after the key derivation:
//   open 10,000 credentials ≤ 15 ms, 100,000 ≤ 150 ms; add one to 10,000 ≤ 40 ms including
//   fsync; peak memory for the 10,000 case ≤ 40 MB beyond the KDF's own.
// Usage: swift run -c release pwtui-bench [rounds]

/// Argon2id once, then the same key from memory: "after the KDF".
final class CachedDerivation: KeyDerivation {
    private let cache = Mutex<[[UInt8]: [UInt8]]>([:])

    func deriveKey(password: borrowing SecureBytes, salt: [UInt8], parameters: KDFParameters) throws(VaultCryptoError)
        -> SecureBytes
    {
        let key = password.withUnsafeBytes { Array($0) } + salt
        if let cached = cache.withLock({ $0[key] }) {
            return try SecureBytes(copying: cached)
        }
        let derived = try Argon2id().deriveKey(password: password, salt: salt, parameters: parameters)
        let bytes = derived.withUnsafeBytes { Array($0) }
        cache.withLock { $0[key] = bytes }
        return derived
    }
}

func secure(_ text: String) throws -> SecureBytes {
    try SecureBytes(copying: Array(text.utf8))
}

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func format(_ values: [Double]) -> String {
    String(
        format: "median %.2f ms (min %.2f, max %.2f, n=%d)", median(values), values.min() ?? 0, values.max() ?? 0,
        values.count)
}

/// Kilobytes from /proc/self/status (VmRSS, VmHWM).
func status(_ field: String) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
    }
    return 0
}

func resetPeakMemory() {
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
}

let rounds = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 15
let environment = VaultEnvironment(derivation: CachedDerivation())
let directory = NSTemporaryDirectory() + "pwtui-bench-" + UUID().uuidString
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: directory) }

func makeVault(_ count: Int) throws -> String {
    let path = "\(directory)/v\(count).pwtui"
    let vault = try Vault.create(
        at: path, password: try secure("bench"), parameters: .interactive, environment: environment)
    for index in 0 ..< count {
        try vault.add(
            services: [
                try ServiceIdentifier("https://login.site\(index).example.com/auth"),
                try ServiceIdentifier("site\(index).com"),
            ],
            username: "user\(index)@example.com", secret: try secure("Pa55-word-\(index)-xyzzy-plugh"),
            title: "Site number \(index)", notes: index % 10 == 0 ? "Some notes for entry \(index)" : "")
    }
    try vault.save()
    return path
}

// `pwtui-bench make-vault PATH COUNT`: a vault of COUNT sample credentials (master password
// "bench"), for timing the real binary (agent fast path, suggest) by hand.
if CommandLine.arguments.dropFirst().first == "make-vault", CommandLine.arguments.count == 4,
    let count = Int(CommandLine.arguments[3])
{
    let vault = try Vault.create(
        at: CommandLine.arguments[2], password: try secure("bench"), parameters: .interactive, environment: environment)
    for index in 0 ..< count {
        try vault.add(
            services: [
                try ServiceIdentifier("https://login.site\(index).example.com/auth"),
                try ServiceIdentifier("site\(index).com"),
            ],
            username: "user\(index)@example.com", secret: try secure("Pa55-word-\(index)"),
            title: "Site number \(index)")
    }
    try vault.save()
    exit(0)
}

// `pwtui-bench profile-open`: only opens a 100,000-credential vault, over and over, for perf.
if CommandLine.arguments.dropFirst().first == "profile-rank" {
    let path = try makeVault(100_000)
    let vault = try Vault.open(at: path, password: try secure("bench"), environment: environment)
    let context = RankingContext(suffixes: LibPSL() ?? NoPublicSuffixList())
    let requests = [try ServiceIdentifier("https://www.site4242.com/login")]
    for _ in 0 ..< 200 { _ = CredentialRanking.matches(vault.contents.credentials, for: requests, context: context) }
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "profile-open" {
    let path = try makeVault(100_000)
    for _ in 0 ..< 5 {
        var file: [UInt8] = []
        let load = try milliseconds { file = try VaultStorage.load(path) }
        let password = try secure("bench")
        var unlocked: UnlockedVault?
        let unlock = try milliseconds {
            unlocked = try VaultFormat.unlock(
                file, password: password, derivation: environment.derivation, bounds: .standard, path: path)
        }
        guard let opened = unlocked.take() else { exit(1) }
        let decrypt = try milliseconds {
            _ = try VaultFormat.decrypt(file, header: opened.keys.header, dataKey: opened.keys.dataKey, path: path)
        }
        print(String(format: "load %.1f  unlock %.1f  decrypt+decode %.1f", load, unlock, decrypt))
    }
    exit(0)
}

// `pwtui-bench journal-open [COUNT] [KEEP]`: opening a vault whose journal is near its bound
// (issue 37: no slower than opening the same contents as one snapshot), and appending one change,
// at COUNT credentials (default 100,000). Both after the key derivation. With KEEP, the two files
// are left there (journaled.pwtui, whole.pwtui) for `open-file`.
if CommandLine.arguments.dropFirst().first == "journal-open" {
    let count = CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 100_000
    let path = try makeVault(count)
    let vault = try Vault.open(at: path, password: try secure("bench"), environment: environment)
    var appends: [Double] = []
    var index = 0
    // Changes with long notes until the journal is nine tenths of what it may hold.
    while true {
        let snapshot = Int(vault.header.payloadLength)
        let journal = vault.journal.end - VaultHeader.byteCount - snapshot
        if journal > snapshot / 4 * 9 / 10 { break }
        let generation = vault.header.generation
        appends.append(
            try milliseconds {
                try vault.add(
                    services: [try ServiceIdentifier("journal\(index).example")], username: "j",
                    secret: try secure("journal-\(index)"), notes: String(repeating: "n", count: 4000))
                try vault.save()
            })
        index += 1
        if vault.header.generation != generation { appends.removeLast() }  // a compaction, not an append
    }
    let records = vault.journal.sequence
    let journaled = "\(directory)/journaled.pwtui"
    try FileManager.default.copyItem(atPath: path, toPath: journaled)
    try vault.compact()
    let whole = "\(directory)/whole.pwtui"
    try FileManager.default.copyItem(atPath: path, toPath: whole)
    // The two opened alternately, round by round, so that load from elsewhere on the machine
    // falls on both alike.
    var times: [String: [Double]] = [:]
    for file in [journaled, whole] {
        _ = try Vault.open(at: file, password: try secure("bench"), environment: environment)
    }
    for _ in 0 ..< rounds {
        for file in [journaled, whole] {
            times[file, default: []].append(
                try milliseconds {
                    _ = try Vault.open(at: file, password: try secure("bench"), environment: environment)
                })
        }
    }
    func opening(_ file: String) -> [Double] { times[file] ?? [] }
    let size = { (file: String) in
        ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0) / 1024
    }
    print("\(count) credentials + \(index) changes with 4 kB notes:")
    print("  append one change (in process, fdatasync included): \(format(appends))")
    print("  open snapshot + \(records) journal records (\(size(journaled)) KiB): \(format(opening(journaled)))")
    print("  open the same contents as one snapshot (\(size(whole)) KiB): \(format(opening(whole)))")
    let ratios = zip(opening(journaled), opening(whole)).map { $0 / $1 }.sorted()
    print(String(format: "  journaled / one snapshot, median of the rounds' ratios: %.3f", ratios[ratios.count / 2]))
    if let keep = CommandLine.arguments.dropFirst(3).first {
        for file in [journaled, whole] {
            let kept = keep + "/" + (file as NSString).lastPathComponent
            try? FileManager.default.removeItem(atPath: kept)
            try FileManager.default.copyItem(atPath: file, toPath: kept)
        }
    }
    try? FileManager.default.removeItem(atPath: directory)
    exit(0)
}

// `pwtui-bench open-file PATH [ROUNDS]`: opens PATH (master password `bench`) ROUNDS times (20)
// after one opening that runs the key derivation, and prints the median: under `perf stat`, the
// instructions of an open, which other work on the machine does not change as it does the time.
if CommandLine.arguments.dropFirst().first == "open-file", let path = CommandLine.arguments.dropFirst(2).first {
    let count = CommandLine.arguments.dropFirst(3).first.flatMap { Int($0) } ?? 20
    _ = try Vault.open(at: path, password: try secure("bench"), environment: environment)
    let times = try (0 ..< count).map { _ in
        try milliseconds { _ = try Vault.open(at: path, password: try secure("bench"), environment: environment) }
    }
    print("open \(path): \(format(times))")
    try? FileManager.default.removeItem(atPath: directory)
    exit(0)
}

// `pwtui-bench memory PATH` (run by the main benchmark as a fresh process): the peak memory of
// opening PATH beyond the key derivation's own. The KDF runs first and its peak is then reset
// through /proc/self/clear_refs, so what remains is the open itself.
if CommandLine.arguments.dropFirst().first == "memory", let path = CommandLine.arguments.dropFirst(2).first {
    let file = try VaultStorage.load(path)
    let header = try file.withUnsafeBytes { try VaultHeader.parse($0, path: path) }
    _ = try environment.derivation.deriveKey(password: try secure("bench"), salt: header.salt, parameters: header.kdf)
    resetPeakMemory()
    let baseline = status("VmRSS")
    let vault = try Vault.open(at: path, password: try secure("bench"), environment: environment)
    print(
        "peak memory opening \(vault.contents.credentials.count) credentials: \((status("VmHWM") - baseline) / 1024) MiB beyond the KDF (process baseline \(baseline / 1024) MiB)"
    )
    exit(0)
}

print("pwtui benchmarks, \(rounds) rounds each, \(ProcessInfo.processInfo.activeProcessorCount) cores")
for count in [10_000, 100_000] {
    let path = try makeVault(count)
    let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    _ = try Vault.open(at: path, password: try secure("bench"), environment: environment)  // warms the KDF cache
    var times: [Double] = []
    for _ in 0 ..< rounds {
        // The opened vault is freed outside the timing: a command exits without tearing it down.
        var opened: Vault?
        times.append(
            try milliseconds {
                opened = try Vault.open(at: path, password: try secure("bench"), environment: environment)
            })
        opened = nil
        _ = opened
    }
    print("open \(count) credentials (\(size / 1024) KiB file), after the KDF: \(format(times))")
}

do {
    let path = "\(directory)/v10000.pwtui"
    let vault = try Vault.open(at: path, password: try secure("bench"), environment: environment)
    var times: [Double] = []
    for round in 0 ..< rounds {
        times.append(
            try milliseconds {
                try vault.add(
                    services: [try ServiceIdentifier("new\(round).example")], username: "n", secret: try secure("p"))
                try vault.save()
            })
    }
    print("add one credential to 10,000 and save (fsync included): \(format(times))")
}

do {
    // Ranking and filtering the 100,000-credential vault (services site<i>.example.com and
    // https://login.site<i>.example.com/auth), warm PSL cache as in a picker session.
    let vault = try Vault.open(
        at: "\(directory)/v100000.pwtui", password: try secure("bench"), environment: environment)
    let context = RankingContext(suffixes: LibPSL() ?? NoPublicSuffixList())
    var ranked: [RankedCredential] = []
    // Typical: the request shares its site with a few credentials. Worst case: with every
    // credential (all of them are under example.com), so all 100,000 are same-site matches to sort.
    for (label, url) in [
        ("typical", "https://www.site4242.com/login"), ("worst case", "https://www.site4242.example.com/login"),
    ] {
        let requests = [try ServiceIdentifier(url)]
        var times: [Double] = []
        for _ in 0 ..< rounds {
            times.append(
                milliseconds {
                    ranked = CredentialRanking.matches(vault.contents.credentials, for: requests, context: context)
                })
        }
        print("rank 100,000 credentials against \(url) (\(label)): \(format(times)); \(ranked.count) match")
    }
    let showAll = try milliseconds {
        ranked = CredentialRanking.rank(
            vault.contents.credentials, for: [try ServiceIdentifier("https://www.site4242.com/login")], context: context
        )
    }
    print(String(format: "rank with show-all (the other 99,999 sorted by title): %.1f ms", showAll))
    var list: FilterableList?
    let prepare = milliseconds { list = FilterableList(ranked) }
    guard let list else { exit(1) }
    var filterTimes: [Double] = []
    var hits = 0
    for round in 0 ..< rounds {
        let query = ["s", "si", "sit", "site4", "site42", "us 42"][round % 6]
        filterTimes.append(milliseconds { hits = list.filteredPositions(by: query).positions.count })
    }
    print(
        String(
            format:
                "re-score 100,000 after a keystroke (queries s, si, sit, site4, site42, 'us 42'): %@ (index built once in %.1f ms)",
            format(filterTimes), prepare))
    _ = hits
}

do {
    // The picker: from an opened vault to the first frame of the list (rank with show-all data,
    // build the filter index, lay out, draw into the grid), and from a keystroke to the next frame.
    let size = TerminalSize(rows: 50, columns: 160)
    for count in [10_000, 100_000] {
        let vault = try Vault.open(
            at: "\(directory)/v\(count).pwtui", password: try secure("bench"), environment: environment)
        let requests = [try ServiceIdentifier("https://www.site4242.com/login")]
        let context = RankingContext(suffixes: LibPSL() ?? NoPublicSuffixList())
        var screen: CredentialListScreen?
        var firstFrames: [Double] = []
        for _ in 0 ..< max(rounds / 3, 3) {
            firstFrames.append(
                milliseconds {
                    let list = CredentialListScreen(
                        ranked: CredentialRanking.rank(vault.contents.credentials, for: requests, context: context),
                        requestLabel: "https://www.site4242.com/login")
                    var canvas = Canvas(size: size)
                    list.render(into: &canvas)
                    screen = list
                })
        }
        print("picker first frame, \(count) credentials (after the KDF): \(format(firstFrames))")
        guard var list = screen else { exit(1) }
        let screenContext = ScreenContext(size: size)
        _ = list.handle(.key(.tab), context: screenContext)
        var keystrokes: [Double] = []
        for character in "site42".unicodeScalars {
            keystrokes.append(
                milliseconds {
                    _ = list.handle(.key(.text(character)), context: screenContext)
                    var canvas = Canvas(size: size)
                    list.render(into: &canvas)
                })
        }
        print("picker keystroke to next frame, \(count) credentials, show-all, typing 'site42': \(format(keystrokes))")
    }
}

for count in [10_000, 100_000] {
    fflush(nil)  // all streams: Swift 6 forbids naming the C global stdout
    let child = Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    child.arguments = ["memory", "\(directory)/v\(count).pwtui"]
    try child.run()
    child.waitUntilExit()
}
