import Commands

// The everyday shapes of the commands run most often (`get`, `add`), read without ArgumentParser.
//
// A `get` answered by the agent is a process start, one request and one write: it should cost
// little more than the process itself. It cost twice that. Of the 22 million instructions of
// `pwtui get --id X` (callgrind, static release binary), ArgumentParser's reading of five words
// was 14.6 million: to build the root's and the command's argument sets it asks the Swift runtime
// whether each property wrapper's type conforms to its protocols, and every first answer scans
// all 5,800 conformance records of the binary. `pwtui --version` pays 7.8 million of its 8.1
// for the same reason. The time is the runtime's, not the parser's, so no option of the parser
// avoids it. The release build's metadata flags (the Makefile's METADATA_FLAGS) spare much of the
// runtime's work, but not the parser's own casts and reflection: with them, ArgumentParser still
// took 12 million of the 15 of `pwtui add x.example --username u`, and 6 of `--version`'s 8.
//
// So a command's everyday shapes are read here (`QuickGet`, `QuickAdd` say which): positional
// words, the command's options and flags, and the three global options, each at most once, an
// option's value as the next word or after `=`. Anything else is declined and goes to
// ArgumentParser, whose messages stay the only ones: `--help`, a typo, `--`, an option given
// twice, a value that is empty or looks like an option, a flag given a value, and whatever the
// command's own checks would refuse. A declined word costs nothing but those millions. Each
// command's tests (`QuickGetTests`, `QuickAddTests`) read thousands of generated argument lists
// both ways and require that every one read here is read the same by ArgumentParser, and that
// the everyday shapes are read here.

/// The words after a command's name, read as positionals, valued options and flags; nil when one
/// of them is not for this reader.
struct QuickWords {
    private(set) var positionals: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []
    private(set) var global = Global()

    /// The global options (`GlobalOptions`' values), as read here.
    struct Global: Equatable {
        var vault: String?
        var config: String?
        var masterPasswordFD: Int32?

        func context() -> CommandContext {
            GlobalOptions.context(vault: vault, config: config, masterPasswordFD: masterPasswordFD)
        }
    }

    static let globalOptions: Set<String> = ["--vault", "--config", "--master-password-fd"]

    /// `options` take a value, `flags` none; both besides the global options.
    init?(_ arguments: [String], command: String, options: Set<String>, flags: Set<String> = []) {
        guard arguments.first == command else { return nil }
        let options = options.union(Self.globalOptions)
        var words = arguments.dropFirst().makeIterator()
        var seen: Set<String> = []
        while let word = words.next() {
            guard word.hasPrefix("-") else {
                positionals.append(word)
                continue
            }
            let name = String(word.prefix { $0 != "=" })
            guard seen.insert(name).inserted else { return nil }
            if flags.contains(name) {
                guard name == word else { return nil }
                self.flags.insert(name)
                continue
            }
            guard options.contains(name),
                let value = name == word ? words.next() : String(word.dropFirst(name.count + 1)),
                !value.isEmpty, !value.hasPrefix("-")
            else { return nil }
            values[name] = value
        }
        global.vault = values["--vault"]
        global.config = values["--config"]
        if let descriptor = values["--master-password-fd"] {
            guard let number = Int32(descriptor) else { return nil }
            global.masterPasswordFD = number
        }
    }

    /// The value of `option`, nil when it was not given.
    subscript(option: String) -> String? { values[option] }

    func has(_ flag: String) -> Bool { flags.contains(flag) }
}
