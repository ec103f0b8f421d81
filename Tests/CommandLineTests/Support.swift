// Helpers for the end-to-end tests: where the binaries are, a private directory per test, running
// a child with extra descriptors and captured output, polling, byte surgery on vault files, and a
// tmux session of the test's own.
//
// Children run through a tiny bash wrapper that opens the extra descriptors (the master password
// on fd 3, a new one on fd 4, ...) with here-strings and then `exec`s the real program, so the
// child's pid is the program's pid. The text for a here-string reaches the wrapper in an
// environment variable that the wrapper unsets before the exec: the program under test never has
// a secret in argv or its environment. stdout and stderr go to files (no pipe to drain, so no
// deadlock on large output), read back when the child has exited.

import Foundation
import Platform
import Commands
import PwtuiTestSupport
import Testing
import VaultModel
#if canImport(Glibc)
    import Glibc
#endif

// MARK: - Binaries

enum Binaries {
    /// `$PWTUI_BIN_DIR` (the Makefile sets it to `swift build --show-bin-path`), else the directory
    /// of the running test executable, which SwiftPM builds next to the products.
    static let directory: String = {
        if let directory = ProcessInfo.processInfo.environment["PWTUI_BIN_DIR"], !directory.isEmpty {
            return directory
        }
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return (executable as NSString).deletingLastPathComponent
    }()

    static var pwtui: String { directory + "/pwtui" }
    static var saveLoop: String { directory + "/pwtui-save-loop" }
    static var secretService: String { directory + "/pwtui-secret-service" }

    /// The path of a binary, failing the test with a useful message when it is not built.
    static func require(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try #require(
            FileManager.default.isExecutableFile(atPath: path),
            "\(path) is missing: run `swift build` first, or set PWTUI_BIN_DIR to `swift build --show-bin-path`",
            sourceLocation: sourceLocation)
        return path
    }
}

// MARK: - Results

struct RunResult: Sendable, CustomStringConvertible {
    let command: String
    /// The exit code, or the signal number when `signaled`.
    let status: Int32
    let signaled: Bool
    let timedOut: Bool
    let stdout: [UInt8]
    let stderr: [UInt8]
    let duration: Duration

    /// The exit code; nil when the child died of a signal.
    var exitCode: Int32? { signaled ? nil : status }
    var out: String { String(decoding: stdout, as: UTF8.self) }
    var err: String { String(decoding: stderr, as: UTF8.self) }

    var description: String {
        let ending = timedOut ? "timed out (killed)" : signaled ? "killed by signal \(status)" : "exit \(status)"
        return
            "`\(command)` → \(ending) after \(duration)\n--- stdout:\n\(out.prefix(2000))\n--- stderr:\n\(err.prefix(2000))"
    }
}

/// What a descriptor of the child is connected to.
enum Redirect: Sendable {
    /// A here-string: the text and a newline, then end of file.
    case text(String)
    /// A file or FIFO opened for reading and writing (`N<>path`): a FIFO opened this way never
    /// reaches end of file, so a read from it blocks for good.
    case readWrite(String)
}

// MARK: - Children

/// A running child process, its output going to files in the sandbox, started with
/// `Platform.ChildProcess` (posix_spawn: only its three streams inherited, signals at their
/// defaults), the same funnel pwtui starts its own children with.
final class Child: @unchecked Sendable {
    // @unchecked: a child belongs to the test that started it, which alone polls and waits.
    let process: ChildProcess
    let command: String
    let stdoutPath: String
    let stderrPath: String
    private let started = ContinuousClock.now
    private var ending: ChildProcess.Ending?
    private var result: RunResult?

    var pid: pid_t { process.id }

    /// Starts `executable` with `arguments` under the bash wrapper (see the top of the file).
    /// `preamble` runs in the wrapper before the exec (`ulimit`, `trap`).
    ///
    /// `detachTerminal` starts the child in a new session, so it has no controlling terminal even
    /// when the tests are run from one. The wrapper `exec`s the program, so the child's pid is the
    /// program's. The child inherits no descriptor above 2 from the test process (posix_spawn's
    /// closefrom): a daemon it leaves behind (tmux's server) holds nothing of ours.
    init(
        _ executable: String, _ arguments: [String], environment: [String: String],
        stdin: Redirect? = nil, descriptors: [Int32: Redirect] = [:], preamble: String = "",
        detachTerminal: Bool = false, scratch: String
    ) throws {
        var environment = environment
        var script = preamble.isEmpty ? "" : preamble + "\n"
        var redirects: [(Int32, Redirect)] = descriptors.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        if let stdin { redirects.insert((0, stdin), at: 0) }
        for (fd, redirect) in redirects {
            let variable = "PWTUI_TEST_FD_\(fd)"
            switch redirect {
            case .text(let text):
                environment[variable] = text
                script += "exec \(fd)<<<\"$\(variable)\"; unset \(variable)\n"
            case .readWrite(let path):
                environment[variable] = path
                script += "exec \(fd)<>\"$\(variable)\"; unset \(variable)\n"
            }
        }
        script += "exec \"$@\""

        let identifier = UUID().uuidString.prefix(8)
        stdoutPath = scratch + "/\(identifier).out"
        stderrPath = scratch + "/\(identifier).err"
        command =
            String(
                ([(executable as NSString).lastPathComponent] + arguments).map(Self.shellQuoted)
                    .joined(separator: " ").prefix(300)) + (redirects.isEmpty ? "" : " [fds \(redirects.map(\.0))]")
        let output = try FileDescriptor.open(stdoutPath, [.writeOnly, .create, .truncate], permissions: 0o600)
        defer { output.close() }
        let errors = try FileDescriptor.open(stderrPath, [.writeOnly, .create, .truncate], permissions: 0o600)
        defer { errors.close() }
        process = try ChildProcess.start(
            "/bin/bash", ["-c", script, "pwtui-test-wrapper", executable] + arguments,
            environment: environment, input: .null, output: .descriptor(output),
            errors: .descriptor(errors), detached: detachTerminal)
    }

    deinit {
        // A test that stopped early (a failed #require) must not leave its child running.
        if result == nil, isRunning {
            for descendant in Self.descendants(of: pid).reversed() { kill(descendant, SIGKILL) }
            process.kill()
            _ = process.wait()
        }
    }

    /// Whether the child has not ended yet (it is reaped when it has).
    var isRunning: Bool {
        if ending == nil { ending = process.poll() }
        return ending == nil
    }

    /// What the child has written to stdout so far.
    func currentStdout() -> [UInt8] { readBytes(stdoutPath) ?? [] }

    /// Signals the program under test and everything it started.
    func signal(_ number: Int32) {
        guard isRunning else { return }
        for descendant in Self.descendants(of: pid).reversed() { kill(descendant, number) }
        kill(pid, number)
    }

    /// Waits for the child to end; after `timeout` it is killed with everything it started, and
    /// the result says so. Never waits longer than `timeout` + 10 s.
    @discardableResult
    func wait(timeout: Duration = .seconds(30)) -> RunResult {
        if let result { return result }
        var timedOut = false
        if !waitForEnd(until: .now + timeout) {
            timedOut = true
            for descendant in Self.descendants(of: pid).reversed() { kill(descendant, SIGKILL) }
            process.kill()
        }
        let ended = !timedOut || waitForEnd(until: .now + .seconds(10))
        let finished = RunResult(
            command: command,
            status: ended ? ending.map(Self.status) ?? -1 : -1,
            signaled: ended ? ending.map(Self.signaled) ?? false : false,
            timedOut: timedOut,
            stdout: readBytes(stdoutPath) ?? [],
            stderr: readBytes(stderrPath) ?? [],
            duration: ContinuousClock.now - started)
        result = finished
        try? FileManager.default.removeItem(atPath: stdoutPath)
        try? FileManager.default.removeItem(atPath: stderrPath)
        return finished
    }

    /// Polls until the child ended or `deadline` passed: every millisecond at first, backing off
    /// to 20 ms, so a quick child costs about a millisecond of latency and a slow one no CPU.
    private func waitForEnd(until deadline: ContinuousClock.Instant) -> Bool {
        var pause = Duration.milliseconds(1)
        while isRunning {
            guard ContinuousClock.now < deadline else { return false }
            CurrentProcess.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(20))
        }
        return true
    }

    private static func status(_ ending: ChildProcess.Ending) -> Int32 {
        switch ending {
        case .exited(let code): return code
        case .killed(let signal): return signal
        }
    }

    private static func signaled(_ ending: ChildProcess.Ending) -> Bool {
        if case .killed = ending { return true }
        return false
    }

    /// The processes below `pid`, parents before children, from /proc/*/stat.
    static func descendants(of pid: pid_t) -> [pid_t] {
        var children: [pid_t: [pid_t]] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let process = pid_t(entry),
                let stat = readBytes("/proc/\(entry)/stat").map({ String(decoding: $0, as: UTF8.self) }),
                let close = stat.lastIndex(of: ")")
            else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = pid_t(fields[1]) { children[parent, default: []].append(process) }
        }
        var result: [pid_t] = []
        var queue = [pid]
        while !queue.isEmpty {
            let next = children[queue.removeFirst()] ?? []
            result += next
            queue += next
        }
        return result
    }

    static func shellQuoted(_ word: String) -> String {
        let safe = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:@%+,".contains($0) }
        return safe && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

extension Duration {
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    var milliseconds: Double { timeInterval * 1000 }
}

// MARK: - Sandbox

/// One test's private directory: the vault lives alone in `vaultDirectory` (so tests can look at
/// every file the save protocol leaves there), captured output in `scratch`, and the XDG
/// directories point inside, so nothing touches the real home directory.
final class Sandbox: @unchecked Sendable {
    // @unchecked: a sandbox belongs to the one test that made it.
    let root: String
    let vaultDirectory: String
    let vault: String
    let scratch: String
    let password = "correct horse battery staple"

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/pwtui-cli-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        try #require(made != nil, "mkdtemp failed (errno \(errno))")
        root = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        vaultDirectory = root + "/vault"
        vault = vaultDirectory + "/vault.pwtui"
        scratch = root + "/io"
        for directory in [
            vaultDirectory, scratch, root + "/xdg/data", root + "/xdg/config", root + "/xdg/state",
            root + "/xdg/runtime",
        ] {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        }
        try writeConfig("")
    }

    deinit {
        if ProcessInfo.processInfo.environment["PWTUI_KEEP_TEST_DIRS"] == nil {
            try? FileManager.default.removeItem(atPath: root)
        }
    }

    /// The environment of every child: the test runner's, minus anything that would point pwtui
    /// elsewhere or change how it crashes, plus this sandbox's vault and XDG directories.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { key, _ in
            !key.hasPrefix("PWTUI_") && !key.hasPrefix("XDG_") && !key.hasPrefix("SWIFT_BACKTRACE")
                && key != "TMUX" && key != "TMUX_PANE"
        }
        environment["PWTUI_VAULT"] = vault
        environment["XDG_DATA_HOME"] = root + "/xdg/data"
        environment["XDG_CONFIG_HOME"] = root + "/xdg/config"
        environment["XDG_STATE_HOME"] = root + "/xdg/state"
        environment["XDG_RUNTIME_DIR"] = root + "/xdg/runtime"
        environment["NO_COLOR"] = "1"
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// Where the master password comes from for one run.
    enum MasterPassword {
        /// The sandbox's password on fd 3, with `--master-password-fd 3`.
        case standard
        /// Another text on fd 3, with `--master-password-fd 3`.
        case text(String)
        /// No descriptor and no option: pwtui has to find a terminal (and finds none).
        case none
    }

    /// Starts a child; see `Child.init`.
    func start(
        _ executable: String, _ arguments: [String], environment extra: [String: String] = [:],
        stdin: Redirect? = nil, descriptors: [Int32: Redirect] = [:], preamble: String = "",
        detachTerminal: Bool = true
    ) throws -> Child {
        try Child(
            executable, arguments, environment: environment(extra), stdin: stdin,
            descriptors: descriptors, preamble: preamble, detachTerminal: detachTerminal, scratch: scratch)
    }

    /// Runs any program to completion.
    func run(
        _ executable: String, _ arguments: [String], environment extra: [String: String] = [:],
        stdin: Redirect? = nil, descriptors: [Int32: Redirect] = [:], preamble: String = "",
        detachTerminal: Bool = true, timeout: Duration = .seconds(60)
    ) throws -> RunResult {
        let child = try start(
            executable, arguments, environment: extra, stdin: stdin,
            descriptors: descriptors, preamble: preamble, detachTerminal: detachTerminal)
        let result = child.wait(timeout: timeout)
        #expect(!result.timedOut, "\(result)")
        return result
    }

    /// Runs pwtui. Unless `password` is `.none`, the master password is on fd 3 and
    /// `--master-password-fd 3` is appended to the arguments. Every run has no controlling
    /// terminal, so a pwtui that wrongly wants one fails fast instead of hanging on yours.
    @discardableResult
    func pwtui(
        _ arguments: [String], password: MasterPassword = .standard, stdin: String? = nil,
        descriptors: [Int32: Redirect] = [:], preamble: String = "", environment extra: [String: String] = [:],
        timeout: Duration = .seconds(60)
    ) throws -> RunResult {
        var arguments = arguments
        var descriptors = descriptors
        switch password {
        case .standard:
            descriptors[3] = .text(self.password)
            arguments += ["--master-password-fd", "3"]
        case .text(let text):
            descriptors[3] = .text(text)
            arguments += ["--master-password-fd", "3"]
        case .none:
            break
        }
        return try run(
            try Binaries.require(Binaries.pwtui), arguments, environment: extra,
            stdin: stdin.map { .text($0) }, descriptors: descriptors, preamble: preamble,
            timeout: timeout)
    }

    /// What `pwtui init` leaves (the vault, its identity store, the generation seen), made here
    /// as `init` makes it but with the cheapest key derivation (`Vault.createCheaply`): every
    /// later unlock by the binary costs microseconds, not a 64 MiB Argon2id. `init` itself is
    /// tested on its own (ExitCodeTests, UsageMessageTests, PasswordStrengthCommandLineTests).
    func initVault(at path: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = path ?? vault
        let context = CommandContext(vault: path, environment: Platform.Environment(environment()))
        try context.save(try Vault.createCheaply(at: path, password: password))
        try #require(FileManager.default.fileExists(atPath: path), sourceLocation: sourceLocation)
    }

    /// `pwtui init --kdf interactive`: the vault at the real floor (3 passes, 64 MiB), for the
    /// tests of what a vault's cost shows or changes.
    func initVaultAtTheFloor(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try pwtui(["init", "--kdf", "interactive"])
        try #require(result.exitCode == 0, "\(result)", sourceLocation: sourceLocation)
    }

    /// `printf 'SECRET\n' | pwtui add SERVICES --username USER`; returns the new id.
    @discardableResult
    func add(
        _ services: [String], username: String, secret: String, extra: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let result = try pwtui(["add"] + services + ["--username", username] + extra, stdin: secret)
        try #require(result.exitCode == 0, "\(result)", sourceLocation: sourceLocation)
        let id = result.out.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(
            UUID(uuidString: id) != nil, "add printed \(result.out.debugDescription), not an id",
            sourceLocation: sourceLocation)
        return id
    }

    /// `pwtui agent start` and `pwtui unlock` (the sandbox's password on fd 3); the caller stops
    /// it with `stopAgent()`, usually in a `defer`.
    func startUnlockedAgent(idleTimeout: String = "15m", sourceLocation: SourceLocation = #_sourceLocation) throws {
        let start = try pwtui(
            ["agent", "start", "--idle-timeout", idleTimeout], password: .none, timeout: .seconds(15))
        try #require(start.exitCode == 0, "\(start)", sourceLocation: sourceLocation)
        let unlock = try pwtui(["unlock"])
        try #require(unlock.exitCode == 0, "\(unlock)", sourceLocation: sourceLocation)
    }

    func stopAgent() {
        _ = try? pwtui(["agent", "stop"], password: .none)
    }

    /// `pwtui list --format json`, parsed.
    func listJSON(vault path: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String:
        Any]]
    {
        let result = try pwtui(["list", "--format", "json"] + (path.map { ["--vault", $0] } ?? []))
        try #require(result.exitCode == 0, "\(result)", sourceLocation: sourceLocation)
        return try parseJSONArray(result.stdout, sourceLocation: sourceLocation)
    }

    /// Every regular file in the vault's directory, with its bytes.
    func vaultDirectoryFiles() throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: vaultDirectory) {
            let path = vaultDirectory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            files[name] = readBytes(path) ?? []
        }
        return files
    }

    /// Names of the save protocol's temporary files (`.vault.pwtui.tmp-*`) in the vault's directory.
    func temporaryFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: vaultDirectory)
            .filter { $0.hasPrefix("." + (vault as NSString).lastPathComponent + ".tmp-") }
    }
}

func parseJSONArray(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
    let parsed = try JSONSerialization.jsonObject(with: Data(bytes))
    return try #require(
        parsed as? [[String: Any]],
        "not a JSON array of objects: \(String(decoding: bytes, as: UTF8.self).prefix(500))",
        sourceLocation: sourceLocation)
}

// MARK: - Files and bytes

func readBytes(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
}

func writeBytes(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

/// Inverts every bit of the byte at `offset`.
func flipByte(at offset: Int, in path: String) throws {
    var bytes = try #require(readBytes(path))
    try #require(offset < bytes.count)
    bytes[offset] ^= 0xFF
    try writeBytes(bytes, to: path)
}

/// Rewrites little-endian header fields of a vault and, when asked, recomputes the header
/// checksum (unkeyed BLAKE2b-256 of bytes 0..<202, stored at 202..<234) with python3's hashlib,
/// so that the file is a well-formed vault with hostile values rather than a damaged one.
func patchHeader(
    _ path: String, sandbox: Sandbox, u16 shorts: [Int: UInt16] = [:], u32 words: [Int: UInt32] = [:],
    fixChecksum: Bool, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    var bytes = try #require(readBytes(path), sourceLocation: sourceLocation)
    for (offset, value) in shorts {
        withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset ..< offset + 2, with: $0) }
    }
    for (offset, value) in words {
        withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset ..< offset + 4, with: $0) }
    }
    try writeBytes(bytes, to: path)
    guard fixChecksum else { return }
    let script = """
        import hashlib, sys
        path = sys.argv[1]
        data = bytearray(open(path, 'rb').read())
        data[202:234] = hashlib.blake2b(bytes(data[0:202]), digest_size=32).digest()
        open(path, 'wb').write(data)
        """
    let result = try sandbox.run("/usr/bin/env", ["python3", "-c", script, path])
    try #require(
        result.exitCode == 0, "python3 (needed to recompute the header checksum) failed: \(result)",
        sourceLocation: sourceLocation)
}

// MARK: - Polling

/// Calls `condition` until it is true or `timeout` passes; true if it became true.
@discardableResult
func poll(timeout: Duration, every interval: Duration = .milliseconds(10), _ condition: () throws -> Bool) rethrows
    -> Bool
{
    let deadline = ContinuousClock.now + timeout
    while true {
        if try condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        usleep(useconds_t(interval.timeInterval * 1_000_000))
    }
}

// MARK: - tmux

/// A tmux server and session of the test's own (its socket lives in the sandbox), running an
/// interactive bash without rc files. Only this session is ever killed.
final class TmuxSession: @unchecked Sendable {
    // @unchecked: used by the one test that made it.
    let name: String
    private let socketDirectory: String
    private let tmuxPath: String
    private let sandbox: Sandbox
    private(set) var captures: [String] = []
    private var paneTTY: String?

    init(sandbox: Sandbox, sourceLocation: SourceLocation = #_sourceLocation) throws {
        self.sandbox = sandbox
        name = "pwtui-test-" + UUID().uuidString.prefix(8).lowercased()
        socketDirectory = sandbox.root + "/tmux"
        try FileManager.default.createDirectory(
            atPath: socketDirectory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let searchPath = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        let found = searchPath.map { $0 + "/tmux" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        tmuxPath = try #require(
            found, "tmux is not installed; these tests need it (apt-get install tmux, or `make deps`)",
            sourceLocation: sourceLocation)
        let result = try tmux([
            "new-session", "-d", "-s", name, "-x", "100", "-y", "30",
            "exec bash --norc --noprofile -i",
        ])
        try #require(result.exitCode == 0, "tmux new-session failed: \(result)", sourceLocation: sourceLocation)
    }

    deinit {
        _ = try? tmux(["kill-session", "-t", name])
    }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> RunResult {
        try sandbox.run(
            tmuxPath, arguments,
            environment: [
                "TMUX_TMPDIR": socketDirectory, "HISTFILE": sandbox.scratch + "/bash_history",
                "TERM": "xterm-256color",
            ], detachTerminal: false, timeout: .seconds(10))
    }

    /// Types `text` literally (no key names).
    func type(_ text: String) throws {
        let result = try tmux(["send-keys", "-t", name, "-l", text])
        #expect(result.exitCode == 0, "\(result)")
    }

    /// Sends named keys (`Enter`, `Escape`).
    func press(_ keys: String...) throws {
        let result = try tmux(["send-keys", "-t", name] + keys)
        #expect(result.exitCode == 0, "\(result)")
    }

    /// The pane with its whole scrollback, remembered so a test can check every screen it saw.
    func capture() throws -> String {
        let result = try tmux(["capture-pane", "-p", "-t", name, "-S", "-", "-E", "-"])
        let text = result.out
        captures.append(text)
        return text
    }

    /// The terminal modes of the pane's tty (`stty -a`), as words: `echo` or `-echo`, ...
    func terminalModes() throws -> Set<String> {
        if paneTTY == nil {
            paneTTY = try tmux(["display-message", "-p", "-t", name, "#{pane_tty}"]).out
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let result = try sandbox.run(
            "/usr/bin/env", ["stty", "-a", "-F", paneTTY ?? ""], detachTerminal: false,
            timeout: .seconds(10))
        return Set(result.out.split(whereSeparator: { $0 == " " || $0 == ";" || $0 == "\n" }).map(String.init))
    }

    /// Captures until `condition` holds; the last capture, or nil on timeout.
    func waitForPane(timeout: Duration = .seconds(10), _ condition: (String) -> Bool) throws -> String? {
        var last = ""
        let found = try poll(timeout: timeout, every: .milliseconds(20)) {
            last = try capture()
            return condition(last)
        }
        return found ? last : nil
    }
}
