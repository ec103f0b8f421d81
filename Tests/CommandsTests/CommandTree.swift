import ArgumentParser
import Foundation

@testable import pwtui

/// The binary's commands and their options, as its parser has them: ArgumentParser's own dump of
/// the root command (what `pwtui --experimental-dump-help` prints), read in this process.
struct CommandTree {
    let name: String
    /// Long option and flag names, without their dashes.
    let options: Set<String>
    let subcommands: [CommandTree]
    /// Whether it takes positional arguments (then a word after it is one, not a command).
    let takesArguments: Bool

    /// What ArgumentParser gives every command, besides the options it declares.
    static let builtIn: Set<String> = ["help", "version", "generate-completion-script", "experimental-dump-help"]

    static let pwtui: CommandTree = {
        let dump = Data(Pwtui._dumpHelp().utf8)
        guard let json = try? JSONSerialization.jsonObject(with: dump) as? [String: Any],
            let command = json["command"] as? [String: Any]
        else { fatalError("ArgumentParser's dump of the command tree is not what it was") }
        return CommandTree(command)
    }()

    init(_ json: [String: Any]) {
        name = json["commandName"] as? String ?? ""
        let arguments = json["arguments"] as? [[String: Any]] ?? []
        options = Set(
            arguments.flatMap { argument in
                (argument["names"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "long" }
                    .compactMap { $0["name"] as? String }
            })
        takesArguments = arguments.contains { $0["kind"] as? String == "positional" }
        subcommands = (json["subcommands"] as? [[String: Any]] ?? []).map(CommandTree.init)
    }

    /// Every option of every command.
    var allOptions: Set<String> { subcommands.reduce(options) { $0.union($1.allOptions) } }

    /// What is wrong with a command line a document shows (`pwtui ssh generate --type ed25519`),
    /// or nil: each word a command names must be one, each `--option` one of the command reached.
    func problem(with line: String) -> String? {
        var words = line.split(separator: " ").map(String.init)
        let entry = words.removeFirst()
        var command = self
        var path = ["pwtui"]
        switch entry {
        case "git-credential-pwtui": words.insert("git-credential", at: 0)
        case "docker-credential-pwtui": words.insert("docker-credential", at: 0)
        case "pwtui-askpass": words.insert("askpass", at: 0)
        default: break
        }
        var index = 0
        while index < words.count, !command.subcommands.isEmpty {
            let word = words[index]
            if let next = command.subcommands.first(where: { $0.name == word }) {
                command = next
                path.append(word)
                index += 1
            } else if word.wholeMatch(of: /[a-z][a-z-]*/) != nil, !command.takesArguments {
                return "\(path.joined(separator: " ")) has no command '\(word)'"
            } else {
                break
            }
        }
        // Plain `pwtui` with options is `pwtui start` (CommandRunner.onlyGlobalOptions).
        let options =
            path.count == 1 ? options.union(subcommands.first { $0.name == "start" }?.options ?? []) : command.options
        for word in words[index...] {
            if word == "--" { break }
            let bare = word.drop { "[(|".contains($0) }
            guard let match = bare.prefixMatch(of: /--([a-z][a-z0-9-]*)/) else { continue }
            let option = String(match.1)
            if !options.contains(option), !Self.builtIn.contains(option) {
                return "\(path.joined(separator: " ")) has no option --\(option)"
            }
        }
        return nil
    }
}
