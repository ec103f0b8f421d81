// The identity store is a cache (issue 10 items 6 and 7): any damage means "rebuild it", never a
// usage error and never a suggestion the vault does not back; it is written as carefully as the
// vault (fsync before the rename, the directory after), and what a killed writer leaves is
// cleaned up by the next one.

import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

@Suite("Identity store damage and writing")
struct IdentityStoreDamageTests {
    /// The store file: wherever under the state directory it is kept, the file that starts "PWIS".
    func storePath(_ sandbox: Sandbox, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let state = sandbox.root + "/xdg/state"
        let files = (FileManager.default.enumerator(atPath: state)?.allObjects as? [String] ?? []).map {
            state + "/" + $0
        }
        let stores = files.filter { readBytes($0).map { $0.starts(with: Array("PWIS".utf8)) } ?? false }
        try #require(stores.count == 1, "one identity store under \(state): \(files)", sourceLocation: sourceLocation)
        return stores[0]
    }

    func suggest(_ sandbox: Sandbox) throws -> RunResult {
        try sandbox.pwtui(
            ["suggest", "https://github.com/login", "--format", "json"], password: .none, timeout: .seconds(20))
    }

    @Test(
        "every byte of a small store flipped, every truncation: suggest never exits 64, never suggests what the vault does not hold"
    )
    func everyByteFlipped() throws {
        let sandbox = try Sandbox.withVault()
        try sandbox.add(["github.com"], username: "al", secret: "s", extra: ["--title", "G"])
        let path = try storePath(sandbox)
        let good = try #require(readBytes(path))
        let expected = try suggest(sandbox)
        try #require(expected.exitCode == 0, "\(expected)")

        var damaged: [(String, [UInt8])] = []
        for offset in good.indices {
            var bytes = good
            bytes[offset] ^= 0xFF
            damaged.append(("byte \(offset) flipped", bytes))
            var oneBit = good
            oneBit[offset] ^= 0x01
            damaged.append(("bit 0 of byte \(offset) flipped", oneBit))
        }
        for length in stride(from: 0, to: good.count, by: 7) {
            damaged.append(("truncated to \(length)", Array(good.prefix(length))))
        }
        damaged.append(("a byte appended", good + [0]))
        for (what, bytes) in damaged {
            try writeBytes(bytes, to: path)
            let result = try suggest(sandbox)
            #expect(result.exitCode != 64, "\(what): \(result)")
            if result.exitCode == 0 {
                #expect(result.out == expected.out, "\(what): a suggestion the store did not hold: \(result)")
            } else {
                #expect(result.exitCode == 75 && result.err.contains("identity store"), "\(what): \(result)")
            }
        }
        // The damage is repaired by the next unlock.
        try writeBytes(Array(good.prefix(good.count / 2)), to: path)
        #expect(try sandbox.pwtui(["list"]).exitCode == 0)
        #expect(try suggest(sandbox).out == expected.out)
    }

    @Test("a store rewritten by someone else (valid format, another key's MAC) is ignored and said so, not trusted")
    func tamperedStoreIsNotTrusted() throws {
        let sandbox = try Sandbox.withVault(Login(["github.com"], username: "alice", secret: "s"))
        let path = try storePath(sandbox)
        // The add that made alice went to the store's journal: an unlock writes the store whole.
        try FileManager.default.removeItem(atPath: path)
        try #require(try sandbox.pwtui(["list"]).exitCode == 0)
        let good = try #require(readBytes(path))
        // "alice" → "mallo": the same length, so the file still parses; only the MAC can tell.
        let name = Array("alice".utf8)
        let at = try #require((0 ... good.count - name.count).first { Array(good[$0 ..< $0 + name.count]) == name })
        var forged = good
        forged.replaceSubrange(at ..< at + name.count, with: Array("mallo".utf8))
        try writeBytes(forged, to: path)
        let result = try suggest(sandbox)
        #expect(result.exitCode == 75 && !result.out.contains("mallo"), "\(result)")
        #expect(result.err.contains("identity store") && result.err.contains("rebuilds"), "\(result)")
        // Without its key the store is not trusted either.
        try writeBytes(good, to: path)
        #expect(try suggest(sandbox).exitCode == 0)
        try FileManager.default.removeItem(atPath: path + ".key")
        #expect(try suggest(sandbox).exitCode == 75)
    }

    @Test("a temporary left by a writer killed during the store's write is removed by the next write")
    func staleTemporaryRemoved() throws {
        let sandbox = try Sandbox.withVault()
        let path = try storePath(sandbox)
        let (directory, name) = ((path as NSString).deletingLastPathComponent, (path as NSString).lastPathComponent)
        let stale = directory + "/." + name + ".tmp-deadbeef0001"
        try writeBytes(Array("half a store".utf8), to: stale)
        try sandbox.add(["github.com"], username: "alice", secret: "s")
        #expect(!FileManager.default.fileExists(atPath: stale), "the stale temporary is gone")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".tmp-") }
        #expect(left.isEmpty, "\(left)")
        #expect(try suggest(sandbox).exitCode == 0)
    }

    /// `strace OPTIONS pwtui add SERVICE --username u`, the secret "s" on stdin and the master
    /// password on descriptor 3: an add whose writes of the store a test logs or holds back.
    func tracedAdd(
        _ sandbox: Sandbox, _ service: String, strace options: [String], detachTerminal: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Child {
        let strace = try Binaries.requireStrace(sourceLocation: sourceLocation)
        let pwtui = try Binaries.require(Binaries.pwtui, sourceLocation: sourceLocation)
        return try sandbox.start(
            strace, options + [pwtui, "add", service, "--username", "u", "--master-password-fd", "3"],
            stdin: .text("s"), descriptors: [3: .text(sandbox.password)], detachTerminal: detachTerminal)
    }

    @Test("kill -9 while the store's temporary is written and not yet renamed: the next save removes it")
    func killedWriterLeavesNothing() throws {
        let sandbox = try Sandbox.withVault()
        let path = try storePath(sandbox)
        let directory = (path as NSString).deletingLastPathComponent
        func temporaries() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".tmp-") }
        }
        // Which rename puts the store in place: a first add, traced, tells (strace cannot pick a
        // rename by its path). In a second add that rename is held back 20 s, in which the writer
        // is killed with its temporary complete on disk.
        // An add follows the store through its journal; without a store it writes one whole.
        let log = sandbox.scratch + "/rename.log"
        try FileManager.default.removeItem(atPath: path)
        let traced = try tracedAdd(
            sandbox, "first.example", strace: ["-f", "-s", "4096", "-o", log, "-e", "trace=rename"]
        )
        .wait(timeout: .seconds(60))
        try #require(traced.exitCode == 0, "\(traced)")
        let renames = String(decoding: readBytes(log) ?? [], as: UTF8.self).split(separator: "\n").filter {
            $0.contains("rename(")
        }
        let storeName = (path as NSString).lastPathComponent
        let storeRename = try #require(renames.firstIndex { $0.hasSuffix("/\(storeName)\") = 0") }, "\(renames)")
        try FileManager.default.removeItem(atPath: path)
        let child = try tracedAdd(
            sandbox, "killed.example",
            strace: [
                "-f", "-o", "/dev/null", "-e", "trace=rename",
                "-e", "inject=rename:delay_enter=20000000:when=\(storeRename + 1)",
            ],
            detachTerminal: false)
        let caught = try poll(timeout: .seconds(15)) { !(try temporaries()).isEmpty }
        child.signal(SIGKILL)
        child.wait()
        try #require(caught, "the store's temporary never appeared")
        try #require(!(try temporaries()).isEmpty)

        try sandbox.add(["final.example"], username: "u", secret: "s")
        #expect(try temporaries().isEmpty, "the killed writer's temporary is gone")
        #expect(try sandbox.pwtui(["suggest", "final.example"], password: .none).exitCode == 0)
    }

    @Test("the store is fsynced before its rename and its directory after, like the vault")
    func writtenDurably() throws {
        let sandbox = try Sandbox.withVault()
        let log = sandbox.scratch + "/strace.log"
        // Without a store, the add writes one whole (otherwise it appends to its journal).
        try FileManager.default.removeItem(atPath: try storePath(sandbox))
        let add = try tracedAdd(
            sandbox, "github.com",
            strace: ["-f", "-s", "4096", "-o", log, "-e", "trace=openat,fsync,rename,renameat,renameat2,close"]
        )
        .wait(timeout: .seconds(60))
        try #require(add.exitCode == 0, "\(add)")
        // Paths compared without doubled slashes (the sandbox's have one, pwtui normalises it away).
        let path = try storePath(sandbox).replacingOccurrences(of: "//", with: "/")
        let name = (path as NSString).lastPathComponent
        let directory = (path as NSString).deletingLastPathComponent
        let lines = String(decoding: readBytes(log) ?? [], as: UTF8.self).replacingOccurrences(of: "//", with: "/")
            .split(separator: "\n").map(String.init)
        // openat(AT_FDCWD, ".../.identities.tmp-xxxx", O_WRONLY|O_CREAT|O_EXCL...) = 5
        let temporaryOpen = try #require(
            lines.firstIndex { $0.contains("/.\(name).tmp-") && $0.contains("O_CREAT") },
            "the store was written through a temporary: \(lines.suffix(40))")
        let fd = try #require(
            lines[temporaryOpen].split(separator: "=").last.map { $0.trimmingCharacters(in: .whitespaces) })
        let renamed = try #require(
            lines.firstIndex { $0.contains("rename") && $0.contains("/.\(name).tmp-") && $0.contains("\"\(path)\"") })
        #expect(
            lines[temporaryOpen ..< renamed].contains { $0.contains("fsync(\(fd))") && $0.hasSuffix("= 0") },
            "the temporary is fsynced before the rename")
        let directoryOpens = lines[..<renamed].compactMap { line -> String? in
            guard line.contains("\"\(directory)\"") && line.contains("O_DIRECTORY") else { return nil }
            return line.split(separator: "=").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        #expect(
            lines[renamed...].contains { line in directoryOpens.contains { line.contains("fsync(\($0))") } },
            "the directory is fsynced after the rename")
    }
}
