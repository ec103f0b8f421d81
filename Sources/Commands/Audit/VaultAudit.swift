import FoundationEssentials
import Passwords
import Platform
import SSHKeys
import VaultAgent
import VaultCrypto
import VaultModel

/// `pwtui audit`'s work on an open vault, here or in the agent: every credential's current
/// password judged weak, reused, old or breached (docs/audit.md). Only the report leaves: titles,
/// ids and the kind of each finding.
///
/// Each password is read once from the vault's arena, where it stays: its strength estimated in
/// place, a keyed digest taken for reuse (`ReusedPasswords`), and its SHA-1 written into one
/// protected buffer for the breach lookup, which needs nothing else.
///
/// What it costs: each password's estimate looks at its first `PasswordStrength.examinedBytes`
/// (about a millisecond), an SSH key is judged by its type and size, and reuse and the breach
/// lookup are a digest each; so the audit is linear in the vault. In the agent it works on a copy
/// of the contents, outside the agent's turns, and `limit` ends it between two credentials when
/// its client hangs up, the agent stops, or its deadline passes.
public enum VaultAudit {
    /// Audits `vault` as `options` ask, `now` being the time passwords are aged against.
    public static func report(
        of vault: Vault, options: AuditOptions, now: Timestamp,
        dictionary: PasswordDictionary = .system
    ) throws -> AuditReport {
        try report(of: vault.contents, options: options, now: now, limit: .none, dictionary: dictionary)
    }

    /// The same for contents (the agent's copy), checking `limit` as it goes.
    public static func report(
        of contents: VaultContents, options: AuditOptions, now: Timestamp, limit: AgentWorkLimit,
        dictionary: PasswordDictionary = .system
    ) throws -> AuditReport {
        let breaches = try options.breachSource.map { path throws(BreachLookupError) in try BreachSources.open(path) }
        let credentials = contents.credentials.filter { $0.secret.count > 0 }
        var reuse = try ReusedPasswords()
        var findings = [[AuditFinding]](repeating: [], count: credentials.count)
        var digests = try SecureBytes(zeros: breaches == nil ? 0 : credentials.count * PwnedPasswordDigest.byteCount)
        let size = PwnedPasswordDigest.byteCount
        let oldAfter = Int64(options.olderThanDays) * 86_400_000
        for (index, credential) in credentials.enumerated() {
            try limit.check()
            let strength = try contents.secrets.withBytes(of: credential.secret) { password in
                try reuse.add(
                    password, owner: AuditReuse(id: credential.id, title: credential.displayTitle, field: nil))
                if breaches != nil {
                    digests.withUnsafeMutableBytes { all in
                        PwnedPasswordDigest.digest(
                            of: password, into: UnsafeMutableRawBufferPointer(rebasing: all[(index * size)...]))
                    }
                }
                return credential.kind == .sshKey ? nil : PasswordStrength(utf8: password, dictionary: dictionary)
            }
            if let strength, strength.bits < PasswordStrength.fairBits {
                findings[index].append(.weak(bits: strength.bits, reason: strength.weakness))
            }
            if credential.kind == .sshKey, let key = try? SSHKeyItem.privateKey(of: credential, in: contents),
                let size = try? SSHPrivateKey.size(key), size.isWeak
            {
                findings[index].append(.weakKey(type: size.type.rawValue, bits: size.bits))
            }
            let age = now.millisecondsSince1970 - credential.secretSet.millisecondsSince1970
            if age > oldAfter {
                findings[index].append(
                    .old(days: Int(age / 86_400_000), setMilliseconds: credential.secretSet.millisecondsSince1970))
            }
        }
        // A password kept again in a secret field (a PIN equal to a password) is reuse too.
        for credential in contents.credentials {
            try limit.check()
            for field in credential.fields {
                guard let secret = field.secret, secret.count > 0 else { continue }
                try contents.secrets.withBytes(of: secret) { value in
                    try reuse.add(
                        value, owner: AuditReuse(id: credential.id, title: credential.displayTitle, field: field.name))
                }
            }
        }
        for (index, credential) in credentials.enumerated() {
            let elsewhere = reuse.others(sharingPasswordOf: credential.id)
            if !elsewhere.isEmpty { findings[index].append(.reused(elsewhere: elsewhere)) }
        }
        if let breaches {
            let counts = try digests.withUnsafeBytes { all throws(BreachLookupError) in
                try breaches.occurrences(ofDigests: all, count: credentials.count)
            }
            for (index, count) in counts.enumerated() where count > 0 {
                findings[index].append(.breached(count: count))
            }
        }
        let found = credentials.enumerated().compactMap { index, credential -> AuditedCredential? in
            guard !findings[index].isEmpty else { return nil }
            return AuditedCredential(
                id: credential.id, title: credential.displayTitle, username: credential.username,
                findings: findings[index].sorted { $0.kind < $1.kind })
        }
        return AuditReport(audited: credentials.count, options: options, credentials: found)
    }
}
