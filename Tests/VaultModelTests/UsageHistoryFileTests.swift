import Foundation
import Glibc
import Platform
import PwtuiTestSupport
import ServiceMatching
import Testing
import VaultModel

@Suite struct UsageHistoryFileTests {
    let temporary = TemporaryDirectory("usage")

    @Test func aMissingFileIsAnEmptyHistory() {
        let file = UsageHistoryFile(path: temporary.path + "/usage")
        #expect(file.read().useCount(UUID()) == 0)
    }

    @Test func whatIsWrittenIsReadBack() throws {
        let path = temporary.path + "/usage"
        let id = UUID()
        var usage = UsageHistory()
        usage.recordUse(of: id, for: "github.com", at: Timestamp(millisecondsSince1970: 42))
        try UsageHistoryFile(path: path).write(usage)
        #expect(
            UsageHistoryFile(path: path).read().lastUsed(id, for: "github.com") == Timestamp(millisecondsSince1970: 42))
        #expect(try FileSystem.status(path).permissions == 0o600)
    }

    /// Two uses for one host in the same millisecond (a script's `get --id` right after a `get`):
    /// the one recorded last is the most recent, and ranks first; other hosts are untouched.
    @Test func theLastUseWinsWithinAMillisecond() {
        let (first, second) = (UUID(), UUID())
        let now = Timestamp(millisecondsSince1970: 1_700_000_000_000)
        var usage = UsageHistory()
        usage.recordUse(of: first, for: "github.com", at: now)
        usage.recordUse(of: second, for: "github.com", at: now)
        usage.recordUse(of: second, for: "gitlab.com", at: now)
        #expect(usage.lastUsed(second, for: "github.com")! > usage.lastUsed(first, for: "github.com")!)
        #expect(usage.lastUsed(second, for: "gitlab.com") == now)
        usage.recordUse(of: first, for: "github.com", at: now)
        #expect(usage.lastUsed(first, for: "github.com")! > usage.lastUsed(second, for: "github.com")!)
        // A later clock is taken as it is.
        let later = Timestamp(millisecondsSince1970: now.millisecondsSince1970 + 5_000)
        usage.recordUse(of: second, for: "github.com", at: later)
        #expect(usage.lastUsed(second, for: "github.com") == later)
    }

    /// The agent keeps the history between requests: a use that another process recorded
    /// meanwhile (a `get` without the agent) must still count.
    @Test func anotherProcesssWriteIsSeen() throws {
        let path = temporary.path + "/usage"
        let agent = UsageHistoryFile(path: path)
        let elsewhere = UsageHistoryFile(path: path)
        let (first, second) = (UUID(), UUID())
        var usage = agent.read()
        usage.recordUse(of: first, for: "a.com", at: Timestamp(millisecondsSince1970: 1))
        try agent.write(usage)
        #expect(agent.read().useCount(first) == 1)

        var theirs = elsewhere.read()
        #expect(theirs.useCount(first) == 1)
        theirs.recordUse(of: second, for: "b.com", at: Timestamp(millisecondsSince1970: 2))
        try elsewhere.write(theirs)
        #expect(agent.read().useCount(second) == 1)

        // Removed: an empty history again, not the one kept.
        try FileSystem.remove(path)
        #expect(agent.read().useCount(first) == 0)
    }

    /// Not a regular file at the history's path (a FIFO nobody writes to): read as no history,
    /// at once. Read with Foundation's `contents(atPath:)` this waited for a writer forever, and
    /// the agent with it.
    @Test func aFIFOAtThePathIsNoHistoryAndDoesNotHang() throws {
        let path = try temporary.freshPath("usage")
        #expect(mkfifo(path, 0o600) == 0)
        #expect(UsageHistoryFile(path: path).read().useCount(UUID()) == 0)
    }
}

extension UsageHistoryFileTests {
    /// The agent's history defers its writes: a use counts at once, is written by `flush`, and a
    /// file another process wrote meanwhile is read with the uses not written yet on top of it.
    @Test func deferredUsesCountAtOnceAndSurviveAnotherProcesssWrite() throws {
        let path = temporary.path + "/usage"
        let agent = UsageHistoryFile(path: path, defersWrites: true)
        let (first, second) = (UUID(), UUID())
        try agent.update { $0.recordUse(of: first, for: "a.com", at: Timestamp(millisecondsSince1970: 1)) }
        #expect(agent.read().useCount(first) == 1)
        #expect(!FileSystem.exists(path))
        try agent.update { $0.recordUse(of: first, for: "a.com", at: Timestamp(millisecondsSince1970: 2)) }
        #expect(agent.read().useCount(first) == 2)

        var theirs = UsageHistory()
        theirs.recordUse(of: second, for: "b.com", at: Timestamp(millisecondsSince1970: 3))
        try UsageHistoryFile(path: path).write(theirs)
        let seen = agent.read()
        #expect(seen.useCount(first) == 2 && seen.useCount(second) == 1)

        agent.flush()
        let written = UsageHistoryFile(path: path).read()
        #expect(written.useCount(first) == 2 && written.useCount(second) == 1)
        // Written once: a second flush with nothing new leaves the file as it is.
        let status = try FileSystem.status(path)
        agent.flush()
        #expect(try FileSystem.status(path) == status)
        try agent.update { $0.recordUse(of: first, for: "a.com", at: Timestamp(millisecondsSince1970: 4)) }
        #expect(agent.read().useCount(first) == 3)
        agent.flush()
        #expect(UsageHistoryFile(path: path).read().useCount(first) == 3)
    }
}
