import ArgumentParser
import Commands
import ServiceMatching

/// Two mistakes ArgumentParser answers wrongly, caught before it parses.
///
/// A word with one dash, like `-github.com`, is read as a cluster of short options: `-g -i -t
/// -h ...`. One of them is `-h`, so `pwtui add -github.com --username x` printed the help and
/// exited 0 with nothing added — a script would think it worked. pwtui's only short option is
/// `-h`, so every single-dash word longer than that (before `--`, and not a negative number) is
/// refused here as an unknown option, with how to pass such a word on purpose: after `--`, or
/// after `=` for an option's value.
///
/// A word where a command is expected that names none (`pwtui show`) is "Unexpected argument"
/// to ArgumentParser, with the root's usage; here it is an unknown command, with the commands
/// there are.
enum ArgumentScreening {
    static func check(_ arguments: [String], root: any ParsableCommand.Type) throws {
        for argument in arguments.prefix(while: { $0 != "--" }) where isShortOptionCluster(argument) {
            throw CommandFailure(
                .usage,
                "unknown option '\(argument)'; a service that starts with '-' goes after '--' "
                    + "(pwtui add --username alice -- \(argument)), an option's value after '=' (--notes=\(argument))")
        }
        var command = root
        for argument in arguments {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, !argument.hasPrefix("-"), argument != "help" else { return }
            guard let next = subcommands.first(where: { $0._commandName == argument }) else {
                let name =
                    ObjectIdentifier(command) == ObjectIdentifier(root) ? "pwtui" : "pwtui " + command._commandName
                let known = subcommands.filter { $0.configuration.shouldDisplay }.map { $0._commandName }
                throw CommandFailure(
                    .usage,
                    "unknown command '\(argument)' for \(name); the commands are: \(known.joined(separator: ", ")) "
                        + "(see '\(name) --help')")
            }
            command = next
        }
    }

    /// `-abc`: what ArgumentParser would split into short options. `-h` alone, `--long` and
    /// negative numbers (`--rank -10`) are not.
    static func isShortOptionCluster(_ argument: String) -> Bool {
        argument.hasPrefix("-") && !argument.hasPrefix("--") && argument.count > 2 && Double(argument) == nil
    }
}
