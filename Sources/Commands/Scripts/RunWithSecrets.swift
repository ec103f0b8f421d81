import Platform
import VaultCrypto
import VaultModel

/// `pwtui run -- CMD ARGS…`: CMD started with every environment value that is a reference
/// (`pwtui://…`, from the environment, `--env-file` or `--env`) replaced by the secret it names,
/// so a script's token lives in the vault instead of a `.env` file.
///
/// The secrets exist in two places only: this process's protected memory, and the child's
/// environment (which is what was asked for). They never become a `String` here: the child's
/// environment block is written into protected memory and handed to posix_spawn from there.
///
/// Masking (the default): the child's stdout and stderr come through pipes, and every secret in
/// them is replaced by `<concealed by pwtui>` (`SecretMasker`) before it reaches the terminal or
/// a log. The child then sees pipes, not a terminal. `--no-masking` gives it this process's own
/// stdout and stderr.
///
/// The child's stdin is this process's. Signals another process sends to pwtui are passed on
/// (`ForwardedSignals`); the exit status is the child's, and a child killed by a signal ends
/// pwtui with the same signal. A program that cannot be started is 127, as `env` says it.
public struct RunWithSecrets {
    public var command: [String]
    public var envFiles: [String] = []
    /// `--env NAME=VALUE`, in order, after the files.
    public var assignments: [String] = []
    public var masking = true
    /// Whether signals sent to this process go on to the child: the executable's choice; a
    /// test in process leaves its runner's handlers alone.
    public var forwardsSignals = false

    public init(command: [String]) {
        self.command = command
    }

    /// The child's ending. The caller ends the same way (`ForwardedSignals.end(like:)`).
    public func run(in context: CommandContext) throws -> ChildProcess.Ending {
        guard let program = command.first, !program.isEmpty else {
            throw CommandFailure(.usage, "give the command to run after --: pwtui run -- CMD ARGS…")
        }
        let variables = try environment(context)
        let references = try variables.compactMap { try SecretURI($0.value) }
        let secrets = try ScriptSecrets(references, in: context)
        let block = try EnvironmentBlock(variables, secrets: secrets)
        if forwardsSignals {
            do {
                try ForwardedSignals.watch()
            } catch {
                throw CommandFailure(.ioError, "cannot pass signals on to the command: \(error)")
            }
        }
        let child: ChildProcess
        do {
            child = try block.withEntries { (entries) throws(SystemError) -> ChildProcess in
                try ChildProcess.start(
                    program, Array(command.dropFirst()), environmentEntries: entries,
                    input: .descriptor(context.streams.input),
                    output: stream(for: context.streams.answer), errors: stream(for: context.streams.errors))
            }
        } catch {
            context.streams.say("pwtui: \(program): \(error.isNoSuchEntry ? "no such program" : "\(error)")")
            return .exited(error.isNoSuchEntry ? 127 : 126)
        }
        try secrets.withValues { values in
            var relays: [OutputRelay] = []
            if let output = child.output {
                relays.append(try OutputRelay(output, to: context.streams.answer, masking: masking ? values : []))
            }
            if let errors = child.errors {
                relays.append(try OutputRelay(errors, to: context.streams.errors, masking: masking ? values : []))
            }
            try relay(relays, child: child)
        }
        return waitForEnd(of: child)
    }

    /// The child's environment: this process's, then the files', then `--env`'s, later ones
    /// replacing earlier ones.
    func environment(_ context: CommandContext) throws -> [(name: String, value: String)] {
        var order: [String] = context.environment.variables.keys.sorted()
        var values = context.environment.variables
        func set(_ name: String, _ value: String) {
            if values.updateValue(value, forKey: name) == nil { order.append(name) }
        }
        for path in envFiles {
            let text = try ScriptInputFile.text(at: path, kind: "env file")
            for (name, value) in try DotEnvFile(text: text, path: path).variables { set(name, value) }
        }
        for assignment in assignments {
            guard let equals = assignment.firstIndex(of: "="), DotEnvFile.isName(String(assignment[..<equals])) else {
                throw CommandFailure(
                    .usage, "--env takes NAME=VALUE (a reference: NAME=pwtui://SERVICE), not '\(assignment)'")
            }
            set(String(assignment[..<equals]), String(assignment[assignment.index(after: equals)...]))
        }
        return order.map { ($0, values[$0] ?? "") }
    }

    /// Unmasked, the child writes where this process would, when that is a descriptor.
    private func stream(for destination: any StandardStreams.Destination) -> ChildProcess.Stream {
        if !masking, let descriptor = (destination as? DescriptorDestination)?.descriptor {
            return .descriptor(descriptor)
        }
        return .pipe
    }

    /// Reads both pipes until the child closes them, passing signals on meanwhile.
    private func relay(_ relays: [OutputRelay], child: ChildProcess) throws {
        var open = relays
        while !open.isEmpty {
            if forwardsSignals { ForwardedSignals.forward(to: child.id) }
            let ready = try FileDescriptor.readable(among: open.map(\.source), waitingAtMost: 100)
            for relay in open where ready.contains(relay.source) {
                try relay.pass()
            }
            open.removeAll { $0.isFinished }
        }
    }

    /// The child may outlive its pipes (a daemon it started holds them, or it closed them).
    private func waitForEnd(of child: ChildProcess) -> ChildProcess.Ending {
        while true {
            if forwardsSignals { ForwardedSignals.forward(to: child.id) }
            if let ending = child.poll() { return ending }
            CurrentProcess.sleep(for: .milliseconds(1))
        }
    }
}

/// One of the child's output pipes, copied (masked) to where this process writes it. A
/// destination that fails (a reader that went away) closes the pipe, so the child meets the
/// closed pipe as it would have met ours.
final class OutputRelay {
    let source: FileDescriptor
    private let destination: any StandardStreams.Destination
    private var masker: SecretMasker
    private var buffer: SecureBytes
    private(set) var isFinished = false

    init(_ source: FileDescriptor, to destination: any StandardStreams.Destination, masking: [UnsafeRawBufferPointer])
        throws
    {
        self.source = source
        self.destination = destination
        masker = try SecretMasker(secrets: masking)
        buffer = try SecureBytes(zeros: 64 * 1024)
    }

    deinit {
        source.close()
    }

    func pass() throws {
        // A read that fails (it does not on a pipe, but for EIO) ends this output like its end.
        let count =
            (try? buffer.withUnsafeMutableBytes { (bytes) throws(SystemError) in try source.readSome(into: bytes) })
            ?? 0
        let destination = self.destination
        do {
            if count == 0 {
                try masker.finish { try destination.writeAll($0) }
                isFinished = true
            } else {
                try buffer.withUnsafeBytes { bytes in
                    try masker.mask(UnsafeRawBufferPointer(rebasing: bytes[..<count])) { try destination.writeAll($0) }
                }
            }
        } catch {
            isFinished = true
        }
    }
}
