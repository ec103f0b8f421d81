#if canImport(Glibc)
    import Glibc
#endif
internal import CSystem

/// A program this process starts (gpg, git, a clipboard tool, the agent's launcher), with its
/// standard streams wired as asked, and waits for. posix_spawn through the shim, where
/// Foundation's `Process` would bring all of Foundation into the binary (docs/speed.md). The
/// child gets no descriptor but its three streams, and every signal at its default action.
public struct ChildProcess: Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// The same descriptor as this process's own (a terminal, say).
        case inherited
        /// /dev/null.
        case null
        /// A new pipe, whose other end this process gets in `input`, `output` or `errors`.
        case pipe
        /// A descriptor this process holds (a regular file checked by `RegularFile`, a terminal):
        /// the child gets a copy; the caller still owns and closes its own.
        case descriptor(FileDescriptor)
    }

    /// How the child ended.
    public enum Ending: Sendable, Equatable {
        case exited(Int32)
        case killed(signal: Int32)

        /// Exit status 0.
        public var succeeded: Bool { self == .exited(0) }
    }

    public let id: Int32
    /// The writing end of the child's standard input, when it was asked for as a pipe.
    public let input: FileDescriptor?
    /// The reading end of its standard output, when asked for as a pipe.
    public let output: FileDescriptor?
    /// The reading end of its standard error, when asked for as a pipe.
    public let errors: FileDescriptor?

    /// Starts `program` (looked up in PATH unless it contains a '/') with `arguments` after it.
    /// `environment`: the child's whole environment (nil: this process's). `detached`: in a new
    /// session without a controlling terminal (a child that outlives this process, or one that
    /// must never reach the terminal this one runs on). Throws ENOENT when there is no such program.
    public static func start(
        _ program: String, _ arguments: [String], environment: [String: String]? = nil,
        input: Stream = .null, output: Stream = .null,
        errors: Stream = .null, detached: Bool = false
    ) throws(SystemError) -> ChildProcess {
        // The C strings live from here until posix_spawn has copied them into the child:
        // allocated with strdup before the call and freed after it, never a temporary's pointer.
        guard let environment else {
            return try start(program, arguments, input: input, output: output, errors: errors, detached: detached, nil)
        }
        var envp: [UnsafeMutablePointer<CChar>?] = environment.sorted { $0.key < $1.key }.map {
            strdup($0.key + "=" + $0.value)
        }
        defer { envp.forEach { free($0) } }
        guard !envp.contains(where: { $0 == nil }) else { throw SystemError(code: ENOMEM) }
        envp.append(nil)
        return try envp.withUnsafeBufferPointer { (variables) throws(SystemError) in
            try start(
                program, arguments, input: input, output: output, errors: errors, detached: detached,
                variables.baseAddress)
        }
    }

    /// `start` with the child's whole environment given as `NAME=value` C strings that the caller
    /// keeps alive for the call (nil-terminated): values in protected memory (`pwtui run`'s
    /// secrets), which must never become a `String`.
    public static func start(
        _ program: String, _ arguments: [String], environmentEntries: UnsafeBufferPointer<UnsafePointer<CChar>?>,
        input: Stream = .null, output: Stream = .null, errors: Stream = .null
    ) throws(SystemError) -> ChildProcess {
        guard environmentEntries.last == .some(nil), let base = environmentEntries.baseAddress else {
            throw SystemError(code: EINVAL)
        }
        // posix_spawn only reads them (its `char *const[]` is C's way of saying so).
        let variables = UnsafeRawPointer(base).assumingMemoryBound(to: UnsafeMutablePointer<CChar>?.self)
        return try start(program, arguments, input: input, output: output, errors: errors, detached: false, variables)
    }

    private static func start(
        _ program: String, _ arguments: [String], input: Stream, output: Stream, errors: Stream, detached: Bool,
        _ environment: UnsafePointer<UnsafeMutablePointer<CChar>?>?
    ) throws(SystemError) -> ChildProcess {
        var opened: [FileDescriptor] = []  // this process's copies of the child's ends, closed once it has them
        var kept: [FileDescriptor] = []  // the ends this process keeps, closed only on failure
        var nullDevice: FileDescriptor?
        func childEnd(_ stream: Stream, standard: FileDescriptor, childReads: Bool) throws(SystemError) -> (
            child: FileDescriptor, ours: FileDescriptor?
        ) {
            switch stream {
            case .inherited:
                return (standard, nil)
            case .descriptor(let given):
                return (given, nil)
            case .null:
                if let nullDevice { return (nullDevice, nil) }
                let device = try FileDescriptor.open("/dev/null", .readWrite)
                nullDevice = device
                opened.append(device)
                return (device, nil)
            case .pipe:
                let ends = try FileDescriptor.pipe()
                let (child, ours) = childReads ? (ends.reading, ends.writing) : (ends.writing, ends.reading)
                opened.append(child)
                kept.append(ours)
                return (child, ours)
            }
        }
        defer { opened.forEach { $0.close() } }
        do {
            let stdin = try childEnd(input, standard: .standardInput, childReads: true)
            let stdout = try childEnd(output, standard: .standardOutput, childReads: false)
            let stderr = try childEnd(errors, standard: .standardError, childReads: false)
            let id = try spawn(
                program, arguments, environment, stdin.child, stdout.child, stderr.child, detached: detached)
            return ChildProcess(id: id, input: stdin.ours, output: stdout.ours, errors: stderr.ours)
        } catch {
            kept.forEach { $0.close() }
            throw error
        }
    }

    /// The C strings of argv live from here until posix_spawn has copied them into the child:
    /// allocated with strdup before the call and freed after it, never a temporary's pointer.
    /// `environment`: the caller's, alive for the call; nil: this process's.
    private static func spawn(
        _ program: String, _ arguments: [String], _ environment: UnsafePointer<UnsafeMutablePointer<CChar>?>?,
        _ input: FileDescriptor, _ output: FileDescriptor, _ errors: FileDescriptor, detached: Bool
    ) throws(SystemError) -> Int32 {
        var argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        guard !argv.contains(where: { $0 == nil }) else { throw SystemError(code: ENOMEM) }
        argv.append(nil)
        var id: pid_t = 0
        let result = argv.withUnsafeBufferPointer { arguments in
            pwtui_spawn(
                arguments[0], arguments.baseAddress, environment, input.rawValue, output.rawValue, errors.rawValue,
                detached ? 1 : 0, &id)
        }
        guard result == 0 else { throw SystemError(code: result) }
        return id
    }

    /// Kills the child (SIGKILL): one that overran its time limit. Then `wait`.
    public func kill() {
        _ = Glibc.kill(id, SIGKILL)
    }

    /// Asks the child to end (SIGTERM), waits for it up to `time`, then kills it; reaps it.
    public func terminate(within time: Duration) {
        _ = Glibc.kill(id, SIGTERM)
        let deadline = ContinuousClock.now + time
        while ContinuousClock.now < deadline {
            if poll() != nil { return }
            CurrentProcess.sleep(for: .milliseconds(10))
        }
        kill()
        _ = wait()
    }

    /// Waits for the child to end (retried on EINTR). Call once.
    public func wait() -> Ending {
        var status: Int32 = 0
        while waitpid(id, &status, 0) == -1 {
            if errno != EINTR { return .exited(127) }  // ECHILD: someone else reaped it
        }
        return Self.ending(status)
    }

    /// How the child ended, if it has; nil while it runs. Once it answers, the child is reaped:
    /// neither this nor `wait` may be called again.
    public func poll() -> Ending? {
        var status: Int32 = 0
        while true {
            let result = waitpid(id, &status, WNOHANG)
            if result == 0 { return nil }
            if result == id { return Self.ending(status) }
            if errno != EINTR { return .exited(127) }  // ECHILD: someone else reaped it
        }
    }

    /// WIFEXITED / WEXITSTATUS / WTERMSIG, which are macros Swift cannot import.
    private static func ending(_ status: Int32) -> Ending {
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .killed(signal: signal)
    }
}
