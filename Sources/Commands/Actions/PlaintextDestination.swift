import Platform

/// Where a plaintext secret may be written (`export`, `ssh export --private`): a file named with
/// `--output`, not replaced without `--force`, or a stdout that is not a terminal, where it would
/// stay in the scrollback and in view.
enum PlaintextDestination {
    /// Refuses (64) what is not such a place. `refusal`: why a terminal is refused, the start of
    /// the message that then says what to do instead.
    static func check(output: String?, force: Bool, in context: CommandContext, refusal: String) throws {
        if let output {
            if !force, FileSystem.exists(output) {
                throw CommandFailure(.usage, "\(output) exists; give another --output, or --force to replace it")
            }
        } else if context.streams.answerIsTerminal {
            throw CommandFailure(.usage, refusal + "; give --output FILE, or redirect stdout to a file")
        }
    }
}
