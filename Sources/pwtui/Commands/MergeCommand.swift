import ArgumentParser
import Commands

/// `pwtui merge BASE OURS THEIRS` (git's merge driver) and `pwtui merge OTHER`: see `MergeVaults`.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge", abstract: "Merge another copy of the vault into it, per credential, losing no password.",
        discussion: """
            With one file: merges a copy that a sync service left beside the vault (Syncthing's \
            vault.sync-conflict-*.pwtui, Dropbox's or Nextcloud's "vault (conflicted copy ...).pwtui"). \
            With three: git's merge driver (base, ours, theirs; the result replaces ours), set up by \
            'pwtui sync setup'. The key comes from an unlocked agent, else the master password is asked on the terminal.

            Example: merge a Syncthing conflict copy into the vault
              pwtui merge ~/.local/share/pwtui/vault.sync-conflict-20261123-101500-ABCDEFG.pwtui
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(
        help: ArgumentHelp(
            "OTHER, or BASE OURS THEIRS as git's merge driver passes them (%O %A %B).", valueName: "file"))
    var files: [String]

    func run() throws {
        let merge: MergeVaults.Files
        switch files.count {
        case 1: merge = .copy(files[0])
        case 3: merge = .driver(base: files[0], ours: files[1], theirs: files[2])
        default:
            throw CommandFailure(
                .usage,
                "pwtui merge takes one file (a copy to merge into the vault) or three (git's %O %A %B), not \(files.count)"
            )
        }
        try MergeVaults(files: merge).run(in: global.context())
    }
}
