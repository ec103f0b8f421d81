// The save protocol seen from outside (docs/design.md#saving): a save that cannot be written leaves
// the vault byte-identical and no temporary file; concurrent savers lose nothing; a saver killed at
// any moment leaves the old or the new vault, never a torn one.

import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

@Suite("Save protocol")
struct SaveProtocolTests {
    @Test("A save over the file size limit: 74, vault byte-identical, no temporary file left")
    func fileSizeLimit() throws {
        let sandbox = try Sandbox.withVault()
        // ~100 KB of notes (one argument may hold up to 128 KiB) make the vault larger than the
        // 64 KiB limit below, so writing the new image fails half-way with EFBIG.
        let notes = String((0 ..< 100_000).map { index in Character(UnicodeScalar(UInt8(97 + (index * 7919) % 26))) })
        try sandbox.add(["big.example"], username: "alice", secret: "big-secret", extra: ["--notes", notes])
        let before = try sandbox.vaultDirectoryFiles()
        let vaultBefore = try #require(before["vault.pwtui"])
        try #require(vaultBefore.count > 64 * 1024, "the vault must outgrow the limit (\(vaultBefore.count) bytes)")

        // SIGXFSZ ignored, so the write returns EFBIG instead of killing pwtui (what ENOSPC does too).
        let result = try sandbox.pwtui(
            ["add", "small.example", "--username", "bob"], stdin: "small-secret",
            preamble: "trap '' XFSZ; ulimit -f 64")
        #expect(result.exitCode == 74, "\(result)")
        #expect(result.stdout.isEmpty, "no id for a credential that was not saved: \(result)")
        #expect(result.err.contains("unchanged"), "\(result)")
        #expect(try sandbox.vaultDirectoryFiles() == before, "vault, .bak and lock file are byte-identical")
        #expect(try sandbox.temporaryFiles().isEmpty)

        let get = try sandbox.pwtui(["get", "big.example"])
        #expect(get.exitCode == 0 && get.out == "big-secret\n", "the vault still opens: \(get)")
        #expect(try sandbox.pwtui(["get", "small.example"]).exitCode == 1)
    }

    @Test("4 processes adding 25 credentials each at the same time: all 100 are kept")
    func concurrentAdds() throws {
        let sandbox = try Sandbox.withVault()
        let pwtui = try Binaries.require(Binaries.pwtui)
        // Each worker reads the master password once from fd 3, then runs its 25 adds one after
        // the other, reporting every exit code.
        let worker = """
            IFS= read -r password <&3; exec 3<&-
            for n in $(seq 0 24); do
              printf 'secret-p%s-n%s\\n' "$P" "$n" \\
                | "$PWTUI" add "p$P-n$n.example" --username "user-$P-$n" --master-password-fd 3 3<<<"$password" >/dev/null
              echo "n$n rc=$?"
            done
            """
        let workers = try (0 ..< 4).map { process in
            try sandbox.start(
                "/bin/bash", ["-c", worker], environment: ["P": "\(process)", "PWTUI": pwtui],
                descriptors: [3: .text(sandbox.password)])
        }
        let results = workers.map { $0.wait(timeout: .seconds(120)) }
        for (process, result) in results.enumerated() {
            #expect(result.exitCode == 0 && !result.timedOut, "\(result)")
            let expected = (0 ..< 25).map { "n\($0) rc=0" }
            #expect(
                result.out.split(separator: "\n").map(String.init) == expected,
                "every add of process \(process) exits 0: \(result)")
        }

        let entries = try sandbox.listJSON()
        #expect(entries.count == 100)
        let services = Set(entries.flatMap { $0["services"] as? [String] ?? [] })
        let expected = Set((0 ..< 4).flatMap { process in (0 ..< 25).map { "p\(process)-n\($0).example" } })
        #expect(services == expected, "missing: \(expected.subtracting(services).sorted())")
        #expect(Set(entries.compactMap { $0["id"] as? String }).count == 100, "no duplicated ids")
        for (process, n) in [(0, 0), (1, 24), (2, 13), (3, 17)] {
            let get = try sandbox.pwtui(["get", "p\(process)-n\(n).example"])
            #expect(get.out == "secret-p\(process)-n\(n)\n", "\(get)")
        }
        #expect(try sandbox.temporaryFiles().isEmpty)
    }

    /// One line of the save loop: `open G R N` or `saved G R N` (generation, journal records,
    /// credentials).
    private struct Report: Equatable, CustomStringConvertible {
        var generation: UInt64
        var records: UInt64
        var count: Int
        var description: String { "generation \(generation) + \(records) records, \(count) credentials" }

        /// Whether `self` is a later version of the vault than `other`.
        func isLater(than other: Report) -> Bool {
            (generation, records) > (other.generation, other.records)
        }

        /// The last complete line of `output`.
        static func last(in output: [UInt8]) -> Report? {
            let lines = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            guard lines.count >= 2 else { return nil }  // nothing before the last newline
            return parse(lines[lines.count - 2])
        }

        /// The first line, `open G N`, once it is complete. (Not the last line: by the time the
        /// test looks, a busy loop may have saved already.)
        static func opened(in output: [UInt8]) -> Report? {
            let lines = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            guard lines.count >= 2, lines[0].hasPrefix("open ") else { return nil }
            return parse(lines[0])
        }

        private static func parse(_ line: Substring) -> Report? {
            let fields = line.split(separator: " ")
            guard fields.count == 4, let generation = UInt64(fields[1]), let records = UInt64(fields[2]),
                let count = Int(fields[3])
            else { return nil }
            return Report(generation: generation, records: records, count: count)
        }
    }

    @Test("kill -9 at random moments of 200+ saves: the vault always opens, with the old or the new contents")
    func killDuringSaves() throws {
        let sandbox = try Sandbox.withVault()
        let saveLoop = try Binaries.require(Binaries.saveLoop)
        // Restarting the loop after each kill would cost a key derivation each time; the cache
        // (a file in the sandbox) keeps the key for this vault's salt, and Vault.open still checks
        // it against the commitment.
        let arguments = [sandbox.vault, "--kek-cache", sandbox.root + "/kek-cache"]
        let kills = 200
        var known = Report(generation: 1, records: 0, count: 0)  // what `init` wrote
        var advanced = 0  // kills after which the next open found the save in flight completed
        var totalSaves = 0
        var random = SystemRandomNumberGenerator()
        let started = ContinuousClock.now

        for cycle in 0 ..< kills {
            let child = try sandbox.start(saveLoop, arguments, stdin: .text(sandbox.password), detachTerminal: false)
            // The loop's first line reports what it opened: the state the previous kill left.
            var opened: Report?
            poll(timeout: .seconds(20), every: .milliseconds(1)) {
                opened = Report.opened(in: child.currentStdout())
                return opened != nil || !child.isRunning
            }
            guard let opened else {
                child.signal(SIGKILL)
                Issue.record("cycle \(cycle): the vault did not open after a kill: \(child.wait())")
                return
            }
            let sameAsBefore = opened == known
            // A journal record after the one reported, or a new snapshot (a compaction).
            let oneSaveLater = opened.count == known.count + 1 && opened.isLater(than: known)
            #expect(
                sameAsBefore || oneSaveLater,
                "cycle \(cycle): after the kill the vault has \(opened), the last completed save reported \(known)")
            if oneSaveLater { advanced += 1 }

            usleep(UInt32.random(in: 0 ... 150_000, using: &random))
            child.signal(SIGKILL)
            let result = child.wait(timeout: .seconds(10))
            try #require(
                result.signaled && result.status == SIGKILL, "cycle \(cycle): the loop ended by itself: \(result)")
            let last = try #require(Report.last(in: result.stdout), "cycle \(cycle): \(result)")
            totalSaves += last.count - opened.count
            known = last

            let temporaries = try sandbox.temporaryFiles()
            // The new image and, killed while `.bak` was being replaced, the link that was to become it.
            #expect(temporaries.count <= 2, "at most the killed save's temporary files: \(temporaries)")
            #expect(FileManager.default.fileExists(atPath: sandbox.vault), "cycle \(cycle): the vault is gone")
        }
        let elapsed = ContinuousClock.now - started
        print(
            "killDuringSaves: \(kills) kills, \(totalSaves) completed saves, \(advanced) kills between rename and report, \(elapsed)"
        )

        // The real binary agrees: old or new contents, every credential once, secrets intact.
        let entries = try sandbox.listJSON()
        #expect(
            entries.count == known.count || entries.count == known.count + 1,
            "\(entries.count) credentials, the last report said \(known.count)")
        let services = entries.flatMap { $0["services"] as? [String] ?? [] }
        #expect(
            services.sorted() == (0 ..< entries.count).map { "n\($0).example" }.sorted(),
            "credentials n0 ... n\(entries.count - 1), each once")
        for index in Set([0, entries.count / 2, entries.count - 1]) where index >= 0 {
            let get = try sandbox.pwtui(["get", "n\(index).example"])
            #expect(get.exitCode == 0 && get.out == "secret-\(index)\n", "\(get)")
        }
        // .bak is the file before the last snapshot; the journal makes one every hundred or so saves.
        #expect(known.generation > 1, "the saves went through compactions too")
        let backup = try sandbox.pwtui(["list", "--format", "json", "--vault", sandbox.vault + ".bak"])
        #expect(backup.exitCode == 0, "the .bak opens too: \(backup)")
        #expect(totalSaves >= kills, "the kills must land while the loop is saving, not only while it opens")

        // The next save cleans up after the killed one.
        try sandbox.add(["after.example"], username: "u", secret: "after")
        #expect(try sandbox.temporaryFiles().isEmpty)
    }
}
