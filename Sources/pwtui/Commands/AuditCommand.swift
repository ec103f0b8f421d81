import ArgumentParser
import Commands

extension AuditCredentials.Format: ExpressibleByArgument {}

struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Which passwords to change: weak, reused, old, or breached (never a secret in the report).",
        discussion: """
            Answered by an unlocked agent, else after the master password. Breached: found in Have \
            I Been Pwned's Pwned Passwords, offline — the SHA-1 file ordered by hash, or a \
            directory of range files from haveibeenpwned-downloader (docs/audit.md says how to get \
            them). Exit status: 0 nothing found, 3 something found (the report on stdout).

            Example: everything, against the downloaded file
              pwtui audit --hibp ~/pwned/pwnedpasswords.txt
            """)

    @OptionGroup var global: GlobalOptions

    @Option(
        name: .customLong("hibp"),
        help: "Pwned Passwords: the SHA-1 file ordered by hash, or a directory of range files.",
        completion: .file())
    var breachSource: String?

    @Option(name: .customLong("older-than"), help: "A password unchanged longer than this is old (365d, 26w, 2y).")
    var olderThan = "365d"

    @Option(help: "table or json.")
    var format: AuditCredentials.Format = .table

    func run() throws {
        guard let days = AuditCredentials.days(olderThan) else {
            throw CommandFailure(.usage, "--older-than '\(olderThan)' is not a number of days (like 365d, 26w, 2y)")
        }
        try AuditCredentials(breachSource: breachSource, olderThanDays: days, format: format)
            .run(in: global.context())
    }
}
