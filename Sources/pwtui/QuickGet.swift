import Commands
import ServiceMatching
import VaultModel

// `pwtui get` as scripts, git's neighbours and shell aliases type it, read without ArgumentParser.
//
// A `get` answered by the agent is a process start, one request and one write: it should cost
// little more than the process itself. It cost twice that. Of the 22 million instructions of
// `pwtui get --id X` (callgrind, static release binary), ArgumentParser's reading of five words
// was 14.6 million: to build the root's and the command's argument sets it asks the Swift runtime
// whether each property wrapper's type conforms to its protocols, and every first answer scans
// all 5,800 conformance records of the binary. `pwtui --version` pays 7.8 million of its 8.1
// for the same reason. The time is the runtime's, not the parser's, so no option of the parser
// avoids it.
//
// So the everyday shapes of `get` are read here: services, `--id` or both, `--field`,
// `--no-interaction`, and the three global options, each at most once, with its value as the
// next word or after `=`. Anything else is declined and goes to ArgumentParser, whose messages
// stay the only ones: `--help`, a typo, `--`, an option given twice, a value that looks like an
// option, an empty path, a field that does not exist, neither services nor `--id`.
// A declined word costs nothing but the 14.6 million. `QuickGetTests` reads thousands of
// generated argument lists both ways and requires that every one read here is read the same by
// ArgumentParser, and that the everyday shapes are read here.

/// A `get` read without ArgumentParser; nil when the words are not one of its everyday shapes.
struct QuickGet: Equatable {
    var services: [String] = []
    var id: String?
    var field: CredentialField = .password
    var noInteraction = false
    var vault: String?
    var config: String?
    var masterPasswordFD: Int32?

    init?(_ arguments: [String]) {
        guard arguments.first == "get" else { return nil }
        var words = arguments.dropFirst().makeIterator()
        var seen: Set<String> = []
        while let word = words.next() {
            guard word.hasPrefix("-") else {
                services.append(word)
                continue
            }
            let name = String(word.prefix { $0 != "=" })
            guard seen.insert(name).inserted else { return nil }
            if name == "--no-interaction" {
                guard name == word else { return nil }
                noInteraction = true
                continue
            }
            guard ["--id", "--field", "--vault", "--config", "--master-password-fd"].contains(name),
                let value = name == word ? words.next() : String(word.dropFirst(name.count + 1)),
                !value.isEmpty, !value.hasPrefix("-")
            else { return nil }
            switch name {
            case "--id": id = value
            case "--field":
                guard let chosen = CredentialField(rawValue: value) else { return nil }
                field = chosen
            case "--vault": vault = value
            case "--config": config = value
            default:
                guard let descriptor = Int32(value) else { return nil }
                masterPasswordFD = descriptor
            }
        }
        guard !services.isEmpty || id != nil else { return nil }
    }

    func run() throws {
        let (query, titleFallback) = try GetCredential.query(words: services, id: id)
        var get = GetCredential(query: query, field: field, noInteraction: noInteraction)
        get.titleFallback = titleFallback
        try get.run(in: GlobalOptions.context(vault: vault, config: config, masterPasswordFD: masterPasswordFD))
    }
}
