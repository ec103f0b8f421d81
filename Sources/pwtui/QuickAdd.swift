import Commands

// `pwtui add` as scripts and people type it: services, `--username`, `--title`, `--notes`,
// `--force`, `--generate` (with `--print`) and the global options (why without ArgumentParser:
// QuickWords). What `AddCommand.validate` would refuse is declined, so that its messages stay the
// only ones: no service (an item without a site, or "Home Wi-Fi" where a service goes), a service
// without `--username`, `--print` without `--generate`. So are the rarer `--kind`, `--field`,
// `--rules`, `--rank` and `--totp`, and with them their checks.

/// An `add` read without ArgumentParser; nil when the words are not one of its everyday shapes.
struct QuickAdd: Equatable {
    var services: [String] = []
    var username = ""
    var title = ""
    var notes = ""
    var force = false
    var generate = false
    var printPassword = false
    var global = QuickWords.Global()

    init?(_ arguments: [String]) {
        guard
            let words = QuickWords(
                arguments, command: "add", options: ["--username", "--title", "--notes"],
                flags: ["--force", "--generate", "--print"]),
            !words.positionals.isEmpty, let username = words["--username"]
        else { return nil }
        services = words.positionals
        self.username = username
        title = words["--title"] ?? ""
        notes = words["--notes"] ?? ""
        force = words.has("--force")
        generate = words.has("--generate")
        printPassword = words.has("--print")
        guard generate || !printPassword else { return nil }
        global = words.global
    }

    func run() throws {
        let add = AddCommand.credential(
            services: services, username: username, title: title, notes: notes, generate: generate, force: force,
            printPassword: printPassword)
        try add.run(in: global.context())
    }
}
