// Concurrent commands changing one credential (docs/design.md#saving, step 3; issue 10 item 1):
// every change a command acknowledged with exit 0 is in the vault afterwards, and a change that
// cannot be merged fails instead. The races are made certain, not hoped for: the test holds the
// save lock while the commands open the vault, so they all read the same version and then save one
// after the other; or strace delays one command's lock until the other has saved.

import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

@Suite("Concurrent edits")
struct ConcurrentEditTests {
    /// The save lock of the sandbox's vault, held until `release`.
    final class HeldLock {
        let fd: Int32
        let inode: UInt64

        init(_ path: String) throws {
            fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            try #require(fd >= 0, "cannot open \(path)")
            try #require(flock(fd, LOCK_EX) == 0)
            var info = stat()
            try #require(fstat(fd, &info) == 0)
            inode = UInt64(info.st_ino)
        }

        /// How many processes wait for this lock (`->` lines of /proc/locks for its inode).
        func waiters() -> Int {
            let locks = String(decoding: readBytes("/proc/locks") ?? [], as: UTF8.self)
            return locks.split(separator: "\n").filter { $0.contains("->") && $0.contains(":\(inode) ") }.count
        }

        func release() { close(fd) }
    }

    func credential(_ sandbox: Sandbox, _ id: String) throws -> [String: Any]? {
        try sandbox.listJSON().first { $0["id"] as? String == id }
    }

    /// The credential as the last round of every field's edits left it: title-N, user-N, rank N,
    /// and every service added on top of start.example. Failures point at the calling test.
    func expectLastEdits(
        _ sandbox: Sandbox, _ id: String, lastRound: Int, services added: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let entry = try #require(try credential(sandbox, id), sourceLocation: sourceLocation)
        #expect(entry["title"] as? String == "title-\(lastRound)", sourceLocation: sourceLocation)
        #expect(entry["username"] as? String == "user-\(lastRound)", sourceLocation: sourceLocation)
        #expect(entry["rank"] as? Int == lastRound, sourceLocation: sourceLocation)
        let services = Set(entry["services"] as? [String] ?? [])
        let expected = Set(["start.example"] + added)
        #expect(
            services == expected, "missing: \(expected.subtracting(services).sorted())", sourceLocation: sourceLocation)
    }

    /// One bash `worker` a field, free-running (no lock held by the test), with FIELD, PWTUI and
    /// ID in its environment and the master password on descriptor 3. Each worker prints
    /// `nN rc=STATUS` a round; every one of `rounds` rounds must have been acknowledged with 0.
    func runWorkers(
        _ sandbox: Sandbox, _ id: String, fields: [String], rounds: Int, worker: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let pwtui = try Binaries.require(Binaries.pwtui, sourceLocation: sourceLocation)
        let workers = try fields.map { field in
            try sandbox.start(
                "/bin/bash", ["-c", worker], environment: ["FIELD": field, "PWTUI": pwtui, "ID": id],
                descriptors: [3: .text(sandbox.password)])
        }
        for result in workers.map({ $0.wait(timeout: .seconds(180)) }) {
            #expect(
                result.out.split(separator: "\n").map(String.init) == (0 ..< rounds).map { "n\($0) rc=0" }, "\(result)",
                sourceLocation: sourceLocation)
        }
    }

    @Test(
        "4 processes editing different fields of one credential, 20 rounds that all read the same version: every edit kept"
    )
    func differentFieldsAtOnce() throws {
        let sandbox = try Sandbox.withVault()
        let id = try sandbox.add(["start.example"], username: "first", secret: "s3cret", extra: ["--title", "first"])
        let pwtui = try Binaries.require(Binaries.pwtui)
        for round in 0 ..< 20 {
            let lock = try HeldLock(sandbox.vault + ".lock")
            let edits: [[String]] = [
                ["--title", "title-\(round)"], ["--username", "user-\(round)"], ["--rank", "\(round)"],
                ["--add-service", "s\(round).example"],
            ]
            let children = try edits.map { edit in
                try sandbox.start(
                    pwtui, ["edit", id] + edit + ["--master-password-fd", "3"],
                    descriptors: [3: .text(sandbox.password)])
            }
            let allRead = poll(timeout: .seconds(20)) { lock.waiters() == edits.count }
            lock.release()
            #expect(allRead, "round \(round): the 4 edits did not all reach the save lock")
            for child in children {
                let result = child.wait(timeout: .seconds(30))
                #expect(result.exitCode == 0, "round \(round): \(result)")
            }
        }
        try expectLastEdits(sandbox, id, lastRound: 19, services: (0 ..< 20).map { "s\($0).example" })
        #expect(try sandbox.pwtui(["get", "--id", id]).out == "s3cret\n")
    }

    @Test("4 processes editing different fields, 20 edits each, free-running: all exit 0 and every last edit is there")
    func differentFieldsFreeRunning() throws {
        let sandbox = try Sandbox.withVault()
        let id = try sandbox.add(["start.example"], username: "first", secret: "s3cret")
        let worker = """
            IFS= read -r password <&3; exec 3<&-
            for n in $(seq 0 19); do
              case "$FIELD" in
                title) set -- --title "title-$n" ;;
                username) set -- --username "user-$n" ;;
                rank) set -- --rank "$n" ;;
                service) set -- --add-service "s$n.example" ;;
              esac
              "$PWTUI" edit "$ID" "$@" --master-password-fd 3 3<<<"$password"
              echo "n$n rc=$?"
            done
            """
        try runWorkers(sandbox, id, fields: ["title", "username", "rank", "service"], rounds: 20, worker: worker)
        try expectLastEdits(sandbox, id, lastRound: 19, services: (0 ..< 20).map { "s\($0).example" })
    }

    @Test("edits through an unlocked agent racing edits of other fields by processes that unlock themselves: all kept")
    func agentAndLocalEdits() throws {
        let sandbox = try Sandbox.withVault()
        let id = try sandbox.add(["start.example"], username: "first", secret: "s3cret")
        let start = try sandbox.pwtui(
            ["agent", "start", "--idle-timeout", "60s"], password: .none, timeout: .seconds(15))
        try #require(start.exitCode == 0, "\(start)")
        defer { _ = try? sandbox.pwtui(["agent", "stop"], password: .none) }
        try #require(try sandbox.pwtui(["unlock"]).exitCode == 0)
        // Through the agent: no descriptor. Locally: --master-password-fd, which bypasses it.
        let worker = """
            IFS= read -r password <&3; exec 3<&-
            for n in $(seq 0 14); do
              case "$FIELD" in
                title) "$PWTUI" edit "$ID" --title "title-$n" ;;
                service) "$PWTUI" edit "$ID" --add-service "a$n.example" ;;
                username) "$PWTUI" edit "$ID" --username "user-$n" --master-password-fd 3 3<<<"$password" ;;
                rank) "$PWTUI" edit "$ID" --rank "$n" --master-password-fd 3 3<<<"$password" ;;
              esac
              echo "n$n rc=$?"
            done
            """
        try runWorkers(sandbox, id, fields: ["title", "service", "username", "rank"], rounds: 15, worker: worker)
        try expectLastEdits(sandbox, id, lastRound: 14, services: (0 ..< 15).map { "a\($0).example" })
        let suggested = try sandbox.pwtui(["suggest", "a14.example", "--format", "json"], password: .none)
        #expect(suggested.out.contains("title-14"), "the identity store followed: \(suggested)")
    }

    /// `pwtui ARGS` whose first flock (the save lock) is held back `delay` after the vault was read.
    func delayedSave(_ sandbox: Sandbox, _ arguments: [String], delay: Duration) throws -> Child {
        let strace = try Binaries.requireStrace()
        let microseconds = Int(delay.timeInterval * 1_000_000)
        return try sandbox.start(
            strace,
            [
                "-f", "-o", "/dev/null", "-e", "trace=flock",
                "-e", "inject=flock:delay_enter=\(microseconds):when=1",
                try Binaries.require(Binaries.pwtui),
            ] + arguments + ["--master-password-fd", "3"],
            descriptors: [3: .text(sandbox.password)])
    }

    /// Waits until a process under `child` has `path` open: for the save lock, the moment it has
    /// read the vault and applied its change, and reaches for the lock.
    func waitUntilOpened(_ path: String, by child: Child) -> Bool {
        let wanted = path.replacingOccurrences(of: "//", with: "/")
        return poll(timeout: .seconds(20)) {
            ([child.pid] + Child.descendants(of: child.pid)).contains { pid in
                let directory = "/proc/\(pid)/fd"
                return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).contains { fd in
                    (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + fd)) == wanted
                }
            }
        }
    }

    @Test(
        "rm --yes saved while an edit of the same credential waits: the edit fails, naming the removal; it never comes back"
    )
    func editAfterRemove() throws {
        let sandbox = try Sandbox.withVault()
        for round in 0 ..< 3 {
            let id = try sandbox.add(["r\(round).example"], username: "doomed", secret: "s3cret")
            let edit = try delayedSave(sandbox, ["edit", id, "--title", "edited"], delay: .seconds(3))
            // The edit has read the vault when it opens the lock file; then rm saves first.
            try #require(waitUntilOpened(sandbox.vault + ".lock", by: edit))
            let rm = try sandbox.pwtui(["rm", id, "--yes"])
            #expect(rm.exitCode == 0, "\(rm)")
            let edited = edit.wait(timeout: .seconds(30))
            #expect(edited.exitCode != 0, "an edit that cannot be applied must not report success: \(edited)")
            #expect(edited.err.contains("removed"), "\(edited)")
            #expect(try credential(sandbox, id) == nil, "the removed credential stays removed")
        }
    }

    @Test("an edit saved while rm --yes of the same credential waits: both succeed and it is removed")
    func removeAfterEdit() throws {
        let sandbox = try Sandbox.withVault()
        for round in 0 ..< 3 {
            let id = try sandbox.add(["r\(round).example"], username: "doomed", secret: "s3cret")
            let rm = try delayedSave(sandbox, ["rm", id, "--yes"], delay: .seconds(3))
            try #require(waitUntilOpened(sandbox.vault + ".lock", by: rm))
            let edit = try sandbox.pwtui(["edit", id, "--title", "edited"])
            #expect(edit.exitCode == 0, "\(edit)")
            let removed = rm.wait(timeout: .seconds(30))
            #expect(removed.exitCode == 0, "\(removed)")
            #expect(try credential(sandbox, id) == nil, "rm came last and was acknowledged: the credential is gone")
        }
    }
}
