import Foundation
import Glibc
import Platform
import Synchronization
import Testing

@Suite struct ChildProcessTests {
    /// Runs `sh -c script` with a pipe on stdout and returns what it printed and how it ended.
    private func shell(_ script: String, detached: Bool = false) throws -> (output: String, ending: ChildProcess.Ending)
    {
        let child = try ChildProcess.start("sh", ["-c", script], output: .pipe, detached: detached)
        let output = try #require(child.output)
        defer { output.close() }
        let bytes = try output.readToEnd()
        return (String(decoding: bytes, as: UTF8.self), child.wait())
    }

    @Test func writesToTheChildAndReadsItsOutput() throws {
        let child = try ChildProcess.start("tr", ["a-z", "A-Z"], input: .pipe, output: .pipe)
        let (input, output) = try (#require(child.input), #require(child.output))
        try input.writeAll("hello, child\n")
        input.close()
        #expect(String(decoding: try output.readToEnd(), as: UTF8.self) == "HELLO, CHILD\n")
        output.close()
        #expect(child.wait() == .exited(0))
    }

    @Test func tellsAnExitStatusFromASignal() throws {
        #expect(try shell("exit 3").ending == .exited(3))
        #expect(try shell("kill -KILL $$").ending == .killed(signal: SIGKILL))
        #expect(!ChildProcess.Ending.exited(1).succeeded)
        #expect(ChildProcess.Ending.exited(0).succeeded)
    }

    @Test func anEnvironmentGivenIsTheChildsWholeEnvironment() throws {
        let child = try ChildProcess.start(
            "/usr/bin/env", [], environment: ["PWTUI_ONE": "1", "B": "two words"], output: .pipe)
        let output = try #require(child.output)
        defer { output.close() }
        let lines = String(decoding: try output.readToEnd(), as: UTF8.self).split(separator: "\n").sorted()
        #expect(lines == ["B=two words", "PWTUI_ONE=1"])
        #expect(child.wait() == .exited(0))
    }

    @Test func pollSaysNothingWhileTheChildRunsAndItsEndingOnce() throws {
        let child = try ChildProcess.start("sh", ["-c", "read line; exit 7"], input: .pipe)
        let input = try #require(child.input)
        #expect(child.poll() == nil)
        input.close()
        var ending: ChildProcess.Ending?
        for _ in 0 ..< 1000 where ending == nil {
            ending = child.poll()
            if ending == nil { CurrentProcess.sleep(for: .milliseconds(5)) }
        }
        #expect(ending == .exited(7))
    }

    @Test func aMissingProgramThrowsNotFound() {
        #expect(throws: SystemError(code: ENOENT)) {
            _ = try ChildProcess.start("pwtui-no-such-program-\(getpid())", [])
        }
    }

    @Test func theChildInheritsOnlyItsThreeStreams() throws {
        // A descriptor this process holds open, not close-on-exec: Foundation's Process let such
        // descriptors through, and a child holding a pipe's end keeps its reader waiting.
        let held = open("/dev/null", O_RDONLY)
        defer { close(held) }
        #expect(held > 2)
        let listed = try shell("ls /proc/$$/fd").output.split(separator: "\n").map(String.init)
        #expect(listed.sorted() == ["0", "1", "2"])
    }

    @Test func streamsGoWhereTheyAreAsked() throws {
        // .null: reading stdin ends at once; writing stderr goes nowhere.
        let child = try ChildProcess.start("sh", ["-c", "cat; echo gone >&2; echo done"], output: .pipe)
        let output = try #require(child.output)
        #expect(String(decoding: try output.readToEnd(), as: UTF8.self) == "done\n")
        output.close()
        #expect(child.wait().succeeded)
    }

    @Test func signalsStartAtTheirDefaultActionInTheChild() throws {
        // An ignored signal is inherited across exec; a git or gpg started by pwtui must not
        // inherit what pwtui ignores.
        let previous = signal(SIGINT, SIG_IGN)
        defer { signal(SIGINT, previous) }
        #expect(try shell("kill -INT $$; echo survived").ending == .killed(signal: SIGINT))
    }

    @Test func aDetachedChildLeadsASessionOfItsOwn() throws {
        // Field 6 of /proc/PID/stat is the session id: the shell's own pid when it leads one.
        let script = "set -- $(cut -d ' ' -f 6 /proc/$$/stat); [ \"$1\" = $$ ] && echo leader || echo member"
        #expect(try shell(script, detached: true).output == "leader\n")
        #expect(try shell(script).output == "member\n")
    }

    @Test func argumentsArriveAsGivenWithoutAShellBetween() throws {
        let words = ["plain", "two words", "'quoted'", "$HOME", "`id`", "é\u{301}", "", "line\nbreak"]
        let child = try ChildProcess.start("printf", ["%s\\0"] + words, output: .pipe)
        let output = try #require(child.output)
        let fields = try output.readToEnd().split(separator: 0, omittingEmptySubsequences: false).dropLast()
        output.close()
        #expect(child.wait().succeeded)
        #expect(fields.map { String(decoding: $0, as: UTF8.self) } == words)
    }
}

@Suite struct ShellWordTests {
    /// Each word through the real /bin/sh: `printf %s WORD` prints it back unchanged.
    @Test func theShellReadsEveryWordBackUnchanged() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [String] = [
            "a", " ", "'", "\"", "\\", "$", "`", "\n", "*", ";", "é", "\u{301}", "'\u{301}", "|", "!", "~",
        ]
        var words = ["", "'", "''", "it's", "'\u{301}; echo injected; '"]
        for _ in 0 ..< 40 {
            words.append(
                (0 ..< Int.random(in: 1 ... 12, using: &generator)).map { _ in
                    alphabet.randomElement(using: &generator)!
                }.joined())
        }
        for word in words {
            let child = try ChildProcess.start("sh", ["-c", "printf %s " + ShellWord.quoted(word)], output: .pipe)
            let output = try #require(child.output)
            let printed = String(decoding: try output.readToEnd(), as: UTF8.self)
            output.close()
            #expect(child.wait().succeeded)
            #expect(printed == word, "\(Array(word.unicodeScalars))")
        }
    }
}

@Suite struct ThreadingTests {
    @Test func aLockHeldElsewhereCannotBeTaken() throws {
        let lock = Lock()
        lock.lock()
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Bool?>(nil)
        try DetachedThread.start {
            result.withLock { $0 = lock.tryLock() }
            done.signal()
        }
        done.wait()
        #expect(result.withLock { $0 } == false)
        lock.unlock()
        #expect(lock.tryLock())
        lock.unlock()
    }

    @Test func aDetachedThreadRunsItsWork() throws {
        let done = DispatchSemaphore(value: 0)
        let counter = Mutex(0)
        for _ in 0 ..< 8 {
            try DetachedThread.start {
                counter.withLock { $0 += 1 }
                done.signal()
            }
        }
        for _ in 0 ..< 8 { done.wait() }
        #expect(counter.withLock { $0 } == 8)
    }

    @Test func sleepLastsAtLeastWhatWasAsked() {
        let start = ContinuousClock.now
        CurrentProcess.sleep(for: .milliseconds(30))
        #expect(ContinuousClock.now - start >= .milliseconds(30))
    }
}
