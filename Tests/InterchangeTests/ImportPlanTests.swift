import Foundation
import Platform
import PwtuiTestSupport
import ServiceMatching
import Testing
import VaultCrypto
@testable import Interchange
import VaultModel

/// What an import decides for each entry against what is there: duplicates skipped, conflicts
/// settled by the policy, the same account twice in one file merged or kept.
@Suite("Import decisions")
struct ImportPlanTests {
    let directory = TemporaryDirectory("import-plan")

    func vault() throws -> Vault {
        let vault = try Vault.create(
            at: try directory.freshPath("v.pwtui"), password: try secure("x"), parameters: .interactive,
            environment: VaultEnvironment(derivation: MemoizingDerivation()))
        try vault.add(
            services: [try ServiceIdentifier("https://github.com/login")], username: "alice",
            secret: try secure("same"),
            title: "GitHub", notes: "kept")
        try vault.add(
            services: [try ServiceIdentifier("gitlab.com")], username: "alice", secret: try secure("old"),
            title: "GitLab")
        return vault
    }

    func csv(_ rows: String) throws -> ImportBatch {
        let path = try directory.freshPath("in.csv")
        try Data(("name,url,username,password,note\n" + rows).utf8).write(to: URL(fileURLWithPath: path))
        return try ImportReader.read(path)
    }

    func plan(_ batch: ImportBatch, _ vault: Vault, _ policy: ImportPlan.ConflictPolicy) -> ImportPlan {
        ImportPlan(
            batch, existing: vault.contents.credentials, existingSecrets: vault.contents.secrets, policy: policy,
            now: Timestamp(millisecondsSince1970: 1_800_000_000_000), suffixes: ImportSamples.suffixes)
    }

    static let rows = """
        GitHub,https://github.com/,alice,same,
        GitLab,https://gitlab.com/users/sign_in,alice,new,from the export
        Other,https://other.example,bob,pw,

        """

    @Test(
        "same account, same password: a duplicate whatever the policy; another password: the policy decides",
        arguments: ImportPlan.ConflictPolicy.allCases)
    func policies(policy: ImportPlan.ConflictPolicy) throws {
        let vault = try vault()
        let plan = plan(try csv(Self.rows), vault, policy)
        guard case .duplicate(let other) = plan.steps[0].action else { Issue.record("\(plan.steps[0].action)"); return }
        #expect(other.hasPrefix("credential "))
        let gitlab = vault.contents.credentials[1]
        switch policy {
        case .skip:
            guard case .conflict = plan.steps[1].action else { Issue.record("\(plan.steps[1].action)"); return }
            #expect(plan.addedCount == 1)
        case .keepBoth:
            guard case .addBesides = plan.steps[1].action else { Issue.record("\(plan.steps[1].action)"); return }
            #expect(plan.addedCount == 2)
        case .update:
            #expect(plan.steps[1].action == .update(gitlab.id))
            #expect(plan.addedCount == 1)
            try plan.apply(to: vault)
            let updated = try vault.credential(id: gitlab.id.uuidString)
            #expect(vault.withSecret(updated.secret) { Array($0) } == Array("new".utf8))
            #expect(updated.history.map { vault.withSecret($0.secret) { Array($0) } } == [Array("old".utf8)])
            #expect(updated.services.map(\.text) == ["gitlab.com", "https://gitlab.com/users/sign_in"])
            #expect(updated.notes == "from the export")
            #expect(updated.title == "GitLab")
        }
        #expect(plan.steps[2].action == .add)
    }

    @Test(
        "the same account twice in one file: one credential, the later password current, whatever the policy",
        arguments: ImportPlan.ConflictPolicy.allCases)
    func twiceInOneFile(policy: ImportPlan.ConflictPolicy) throws {
        let vault = try vault()
        let rows =
            "A,https://a.example/,u,one,first\nA again,https://a.example/login,u,two,second\nA copy,a.example,u,two,\n"
        let update = plan(try csv(rows), vault, policy)
        #expect(update.addedCount == 1)
        #expect(update.steps[1].action == .updatePending(.line(2)))
        // The same password again, on a site the credential has: nothing new.
        guard case .duplicate = update.steps[2].action else { Issue.record("\(update.steps[2].action)"); return }
        let merged = try #require(update.added("A"))
        #expect(update.secret(merged.secret) == "two")
        #expect(merged.history.map { update.secret($0.secret) } == ["one"])
        #expect(merged.notes == "first\n\nsecond")
        #expect(merged.services.map(\.text) == ["https://a.example/", "https://a.example/login"])
    }

    @Test(
        "the same account twice in one file with two authenticator keys: the later current, the other kept in the key history (issue 24, 4)"
    )
    func twoKeysInOneFile() throws {
        let vault = try vault()
        let path = try directory.freshPath("in.csv")
        let rows =
            "folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp\n"
            + ",0,login,A,,,0,https://a.example/,u,one,JBSWY3DPEHPK3PXP\n"
            + ",0,login,A again,,,0,https://a.example/,u,two,GEZDGNBVGY3TQOJQ\n"
        try Data(rows.utf8).write(to: URL(fileURLWithPath: path))
        let update = plan(try ImportReader.read(path), vault, .update)
        let merged = try #require(update.added("A"))
        let current = try #require(merged.totp)
        #expect(merged.totpHistory.count == 1)
        let previous = try #require(merged.totpHistory.first)
        #expect(update.secret(current.key) != update.secret(previous.key.key))
    }

    /// Issue 23: a CSV's cells are read into one protected arena, notes and all; once they are
    /// entries, only the secrets stay in protected memory (the rest is text in the entries), and
    /// every reference still reads its own secret.
    @Test("a CSV batch keeps its secrets alone in its arena, each still read right")
    func aCSVBatchKeepsOnlyItsSecrets() throws {
        let notes = String(repeating: "a long note and not a secret; ", count: 40)
        let batch = try csv(
            """
            One,https://one.example,alice,first secret,\(notes)
            Two,https://two.example,bob,2nd,\(notes)

            """)
        let passwords = batch.entries.map { entry in
            entry.password.map { batch.secrets.withBytes(of: $0) { String(decoding: $0, as: UTF8.self) } }
        }
        #expect(passwords == ["first secret", "2nd"])
        #expect(batch.entries.map(\.notes) == [notes, notes])
        #expect(batch.secrets.byteCount == "first secret".utf8.count + "2nd".utf8.count)
        // And they go on into the vault as they were.
        let vault = try vault()
        let plan = plan(batch, vault, .skip)
        try plan.apply(to: vault)
        let one = try #require(vault.contents.credentials.first { $0.username == "alice" && $0.title == "One" })
        #expect(
            vault.contents.secrets.withBytes(of: one.secret) { String(decoding: $0, as: UTF8.self) } == "first secret")
    }

    @Test("other usernames, hosts or ports are other accounts")
    func otherAccounts() throws {
        let vault = try vault()
        let rows =
            "G,https://github.com/,bob,same,\nG,https://gist.github.com/,alice,same,\nG,https://github.com:8443/,alice,same,\n"
        let plan = plan(try csv(rows), vault, .skip)
        #expect(plan.addedCount == 3)
    }

    @Test("a URL carrying a password is filed under its site with that part left out, never kept in the notes")
    func userinfo() throws {
        let vault = try vault()
        let plan = plan(try csv("X,https://bob:hunter2@x.example/,bob,pw,\n"), vault, .skip)
        #expect(plan.invalidCount == 0)
        #expect(plan.added("X")?.services.map(\.text) == ["https://x.example/"])
        #expect(plan.added("X")?.notes == "")
        #expect(plan.warnings.allSatisfy { !$0.contains("hunter2") })
        #expect(plan.warnings.contains { $0.contains("user name or password") })
    }

    @Test(
        "an Android app's login from Chrome (android://HASH@package/) is an app link service, not taken for a password in a URL"
    )
    func androidApp() throws {
        let vault = try vault()
        let plan = plan(try csv("com.example.app,android://dGVzdGhhc2g=@com.example.app/,u,pw,\n"), vault, .skip)
        #expect(plan.invalidCount == 0)
        let app = try #require(plan.added("com.example.app"))
        #expect(app.services.map(\.text) == ["android://dGVzdGhhc2g=@com.example.app/"])
        #expect(app.services.first?.form == .app)
        #expect(app.notes == "")
        #expect(plan.warnings.isEmpty, "\(plan.warnings)")
    }

    @Test("progress is told for every entry, then the end")
    func progress() throws {
        let vault = try vault()
        var seen: [(Int, Int)] = []
        _ = ImportPlan(
            try csv(Self.rows), existing: vault.contents.credentials, existingSecrets: vault.contents.secrets,
            policy: .skip, now: Timestamp(millisecondsSince1970: 0), suffixes: ImportSamples.suffixes,
            progress: { seen.append(($0, $1)) })
        #expect(seen.map(\.0) == [0, 1, 2, 3])
        #expect(seen.allSatisfy { $0.1 == 3 })
    }

    @Test("a field over the vault's limits is refused by the entry, before anything is saved")
    func limits() throws {
        let vault = try vault()
        let long = String(repeating: "n", count: Limits.notesBytes + 1)
        let plan = plan(try csv("X,https://x.example/,u,pw,\(long)\n"), vault, .skip)
        guard case .invalid(let reason) = plan.steps[0].action else { Issue.record("\(plan.steps[0].action)"); return }
        #expect(reason.contains("notes"))
    }
}
