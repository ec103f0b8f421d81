import FoundationEssentials
import Platform
import ServiceMatching
import UnicodeText
import VaultModel

/// A note that `pwtui passwd` is under way, so that a change interrupted by a kill or a crash is
/// reported at the next unlock instead of leaving the user to discover which password works.
///
/// `passwd` writes it (durably) before it re-encrypts the vault and removes it once it has said
/// "Master password changed". The note holds the salt the vault had before — public, like the
/// whole header — and the time. Whoever next unlocks the vault and finds the note compares that
/// salt with the vault's: a different one means the rename happened and the new master password
/// is in force; the same one means nothing changed. It says so before asking for the password
/// (which one to type is the point), and removes the note once the vault opened.
struct PasswordChangeMarker {
    let path: String

    init(vaultPath: String) {
        let url = URL(fileURLWithPath: vaultPath)
        path = url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".passwd-pending"
    }

    /// Records, durably, that a change away from `salt` starts now. Written in place, not
    /// through `AtomicFile`: a torn note only loses its salt, which `pending` reads as "try the
    /// new one too", and the vault's rename stays the first rename `passwd` makes (the tests that
    /// kill it around that rename hold the first one).
    static func begin(vaultPath: String, salt: [UInt8]) throws -> PasswordChangeMarker {
        let marker = PasswordChangeMarker(vaultPath: vaultPath)
        let started = Date().formatted(.iso8601)
        let text = "started \(started)\nsalt \(Hex.string(salt))\n"
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(marker.path, [.writeOnly, .create, .truncate, .noFollow], permissions: 0o600)
        } catch {
            throw VaultError.io(path: marker.path, operation: "creating", errno: error.code)
        }
        defer { fd.close() }
        do {
            try fd.writeAll(text)
            try fd.sync()
        } catch {
            try? FileSystem.remove(marker.path)
            throw VaultError.io(path: marker.path, operation: "writing", errno: error.code)
        }
        let directory = URL(fileURLWithPath: marker.path).deletingLastPathComponent().path
        if let directory = try? FileDescriptor.open(directory, [.readOnly, .directory]) {
            try? directory.sync()
            directory.close()
        }
        return marker
    }

    /// The interrupted change at `vaultPath`, if any, and what to tell about it: `notice` in a
    /// message, `short` on the password screen, where a line is one terminal row.
    static func pending(vaultPath: String) -> (marker: PasswordChangeMarker, notice: String, short: String)? {
        let marker = PasswordChangeMarker(vaultPath: vaultPath)
        // Through the funnel: a FIFO here must not hang the opening of the vault.
        guard let text = try? RegularFile.textIfPresent(marker.path) else { return nil }
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        let when = fields["started"].map { " (started \($0))" } ?? ""
        guard let salt = fields["salt"], let header = try? VaultStorage.loadHeader(vaultPath) else {
            return (
                marker,
                "A master password change\(when) was interrupted; if the master password does not work, try the new one.",
                "A password change was interrupted: if this one fails, try the new one"
            )
        }
        let current = Hex.string(header.salt)
        if current != salt {
            return (
                marker,
                "A master password change\(when) was interrupted after it completed: the vault now opens with the NEW master password, not the old one.",
                "An interrupted password change completed: use the NEW master password"
            )
        }
        return (
            marker,
            "A master password change\(when) was interrupted before it changed anything: the old master password still opens the vault.",
            "An interrupted password change changed nothing: the old master password works"
        )
    }

    /// Whether the vault's salt is no longer `salt`: the change reached the disk.
    static func vault(at vaultPath: String, changedFrom salt: [UInt8]) -> Bool {
        (try? VaultStorage.loadHeader(vaultPath)).map { $0.salt != salt } ?? false
    }

    func remove() {
        try? FileSystem.removeIfPresent(path)
    }
}
