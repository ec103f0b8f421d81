import Commands
import ServiceMatching
import VaultModel

// `pwtui get` as scripts, git's neighbours and shell aliases type it: services, `--id` or both,
// `--field`, `--no-interaction` and the global options (why without ArgumentParser: QuickWords).
// A field that does not exist, and neither services nor `--id`, are declined: ArgumentParser says.

/// A `get` read without ArgumentParser; nil when the words are not one of its everyday shapes.
struct QuickGet: Equatable {
    var services: [String] = []
    var id: String?
    var field: CredentialField = .password
    var noInteraction = false
    var global = QuickWords.Global()

    init?(_ arguments: [String]) {
        guard
            let words = QuickWords(
                arguments, command: "get", options: ["--id", "--field"], flags: ["--no-interaction"])
        else { return nil }
        services = words.positionals
        id = words["--id"]
        if let name = words["--field"] {
            guard let chosen = CredentialField(rawValue: name) else { return nil }
            field = chosen
        }
        noInteraction = words.has("--no-interaction")
        global = words.global
        guard !services.isEmpty || id != nil else { return nil }
    }

    func run() throws {
        let (query, titleFallback) = try GetCredential.query(words: services, id: id)
        var get = GetCredential(query: query, field: field, noInteraction: noInteraction)
        get.titleFallback = titleFallback
        try get.run(in: global.context())
    }
}
