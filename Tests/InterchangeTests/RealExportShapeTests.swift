import Foundation
import Platform
import PwtuiTestSupport
import ServiceMatching
import Testing
import VaultCrypto
@testable import Interchange
import VaultModel

/// The shapes of real exports that other projects test their importers with (pass-import's
/// assets, Firefox's and Bitwarden's exports), reproduced in `Samples/shapes` and inline: see
/// `Samples/shapes/README.md` for where each was found. Each test failed before its fix.
@Suite("Real export shapes")
struct RealExportShapeTests {
    let directory = TemporaryDirectory("real-shapes")

    func batch(_ text: String, format: ImportFormat? = nil) throws -> ImportBatch {
        try Array(text.utf8).withUnsafeBytes { try ImportReader.read(bytes: $0, format: format) }
    }

    func failure(_ bytes: [UInt8], format: ImportFormat? = nil) -> String? {
        do {
            _ = try bytes.withUnsafeBytes { try ImportReader.read(bytes: $0, format: format) }
            return nil
        } catch {
            return "\(error)"
        }
    }

    func vault() throws -> Vault {
        try Vault.create(
            at: try directory.freshPath("v.pwtui"), password: try secure("x"), parameters: .interactive,
            environment: VaultEnvironment(derivation: MemoizingDerivation()))
    }

    func plan(_ batch: ImportBatch, _ vault: Vault, _ policy: ImportPlan.ConflictPolicy = .skip) -> ImportPlan {
        ImportPlan(
            batch, existing: vault.contents.credentials, existingSecrets: vault.contents.secrets, policy: policy,
            now: Timestamp(millisecondsSince1970: 1_800_000_000_000), suffixes: ImportSamples.suffixes)
    }

    func isNotCredential(_ step: ImportPlan.Step) -> Bool {
        if case .notCredential = step.action { return true } else { return false }
    }

    @Test(
        "short rows padded; the real password wins over an empty one listed first; both passwords of one account kept; CR gone from notes"
    )
    func chromeShortRows() throws {
        let batch = try ImportSamples.read("shapes/chrome-short-rows.csv")
        #expect(batch.format == .chrome)
        #expect(batch.rejected.isEmpty, "\(batch.rejected)")
        let plan = try ImportSamples.plan(batch)
        #expect(plan.invalidCount == 0)
        #expect(plan.addedCount == 4)
        let webmail = try #require(plan.added("webmail"))
        #expect(plan.secret(webmail.secret) == "kim-Mail-1")
        #expect(webmail.notes == "")
        #expect(plan.secret(try #require(plan.added("bank")).secret) == "b4nk!,x")
        // The copy without a password came first; the real one is current, and nothing empty is in the history.
        let wiki = try #require(
            plan.additions.first { $0.credential.services.first?.host == "wiki.example.org" }?.credential)
        #expect(plan.secret(wiki.secret) == "w1ki-real")
        #expect(wiki.history.isEmpty)
        // Twice with two passwords, no times: the later is current, the earlier in the history, whatever the policy.
        let shop = try #require(plan.added("shop"))
        #expect(plan.secret(shop.secret) == "new-shop")
        #expect(shop.history.map { plan.secret($0.secret) } == ["old-shop"])
        #expect(shop.services.map(\.text) == ["https://shop.example.com/", "https://shop.example.com/login"])
        #expect(shop.notes == "line one\nline two")
        // A note exported as a login and an empty entry: listed as skipped, with why.
        let skipped = plan.steps.filter(isNotCredential)
        #expect(skipped.map(\.origin) == [.line(4), .line(5)])
        #expect(
            skipped.allSatisfy {
                if case .notCredential(let reason) = $0.action {
                    return reason.contains("no username and no password")
                } else {
                    return false
                }
            })
    }

    @Test(
        "one account twice in a Bitwarden export: the newer by revision date is current even when listed first; the older's TOTP key is kept"
    )
    func newerByTime() throws {
        let json = """
            {"encrypted": false, "items": [
              {"type": 1, "name": "Forum", "revisionDate": "2024-05-01T00:00:00.000Z",
               "login": {"username": "kim", "password": "newer", "uris": [{"uri": "https://forum.example.org"}]}},
              {"type": 1, "name": "Forum (old)", "revisionDate": "2023-01-01T00:00:00.000Z",
               "login": {"username": "kim", "password": "older", "totp": "JBSWY3DPEHPK3PXP", "uris": [{"uri": "https://forum.example.org/login"}]}}
            ]}
            """
        let plan = plan(try batch(json), try vault())
        #expect(plan.addedCount == 1)
        #expect(plan.steps[1].action == .olderPending(.path("item 1")))
        let forum = try #require(plan.added("Forum"))
        #expect(plan.secret(forum.secret) == "newer")
        #expect(forum.history.map { plan.secret($0.secret) } == ["older"])
        #expect(forum.totp != nil)
        #expect(forum.services.count == 2)
    }

    @Test("the same account and password twice in a file: the copy's TOTP key is added, not dropped")
    func duplicateInFileBringsKey() throws {
        let csv =
            "Title,URL,Username,Password,Notes,OTPAuth\nA,https://a.example/,kim,same,,\nA,https://a.example/,kim,same,,otpauth://totp/A?secret=JBSWY3DPEHPK3PXP\n"
        let plan = plan(try batch(csv), try vault())
        #expect(plan.addedCount == 1)
        guard case .enrichPending(.line(2), let gains) = plan.steps[1].action else {
            Issue.record("\(plan.steps[1].action)"); return
        }
        #expect(gains == "a TOTP key")
        #expect(try #require(plan.added("A")).totp != nil)
    }

    @Test(
        "the same account and password as the vault's: the export's TOTP key and other sites are added, the password untouched",
        arguments: ImportPlan.ConflictPolicy.allCases)
    func duplicateOfVaultBringsKey(policy: ImportPlan.ConflictPolicy) throws {
        let vault = try vault()
        let github = try vault.add(
            services: [try ServiceIdentifier("github.com")], username: "kim", secret: try secure("same"),
            title: "GitHub")
        let csv = """
            folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp
            ,,login,GH,,,0,"https://github.com/login,https://gist.github.com",kim,same,JBSWY3DPEHPK3PXP

            """
        let plan = plan(try batch(csv), vault, policy)
        // https://github.com/login is a site the credential has; gist.github.com is another.
        #expect(plan.steps[0].action == .enrich(github.id, "a TOTP key, a service"))
        try plan.apply(to: vault)
        let updated = try vault.credential(id: github.id.uuidString)
        #expect(updated.totp != nil)
        #expect(updated.services.map(\.text) == ["github.com", "https://gist.github.com"])
        #expect(vault.withSecret(updated.secret) { Array($0) } == Array("same".utf8))
        #expect(updated.history.isEmpty)
        #expect(updated.title == "GitHub")
    }

    @Test("an export's empty password never replaces the vault's real one, even with --on-conflict update")
    func emptyNeverReplaces() throws {
        let vault = try vault()
        let github = try vault.add(
            services: [try ServiceIdentifier("github.com")], username: "kim", secret: try secure("real"))
        let plan = plan(try batch("name,url,username,password\nGH,https://github.com,kim,\n"), vault, .update)
        guard case .duplicate = plan.steps[0].action else { Issue.record("\(plan.steps[0].action)"); return }
        try plan.apply(to: vault)
        let kept = try vault.credential(id: github.id.uuidString)
        #expect(vault.withSecret(kept.secret) { Array($0) } == Array("real".utf8))
        #expect(kept.history.isEmpty)
    }

    @Test("a vault credential without a password takes the export's real one, even with the default policy (skip)")
    func emptyInVaultTakesReal() throws {
        let vault = try vault()
        let github = try vault.add(
            services: [try ServiceIdentifier("github.com")], username: "kim", secret: try secure(""))
        let plan = plan(try batch("name,url,username,password\nGH,https://github.com,kim,real\n"), vault, .skip)
        #expect(plan.steps[0].action == .update(github.id))
        try plan.apply(to: vault)
        #expect(
            vault.withSecret(try vault.credential(id: github.id.uuidString).secret) { Array($0) } == Array("real".utf8))
    }

    @Test("Firefox's chrome://FirefoxAccounts row is listed as skipped, the logins imported")
    func firefoxAccounts() throws {
        let batch = try ImportSamples.read("shapes/firefox-accounts-row.csv")
        #expect(batch.format == .firefox)
        let plan = try ImportSamples.plan(batch)
        #expect(plan.invalidCount == 0)
        #expect(isNotCredential(plan.steps[0]))
        #expect(plan.addedCount == 1)
        #expect(plan.additions.first?.credential.username == "kim")
    }

    @Test("bare words in the URL column (aib, note) are no services; localhost and URLs still are")
    func bareWords() throws {
        let csv =
            "name,url,username,password\naib,aib,kim,p1\nrouter,localhost:8080,admin,p2\nintranet,http://intranet/,kim,p3\n"
        let plan = plan(try batch(csv), try vault())
        let hosts = plan.additions.flatMap { $0.credential.services.map(\.host) }
        #expect(!hosts.contains("aib"))
        #expect(hosts.contains("localhost") && hosts.contains("intranet"))
    }

    @Test(
        "headers of managers pwtui does not read are named, never read as Chrome's, Safari's or Bitwarden's",
        arguments: [
            (
                "name,url,username,password,note,cardholdername,cardnumber,cvc,expirydate,zipcode,folder\nX,https://x.example,u,p,,,,,,,\n",
                "NordPass"
            ),
            (
                "!group_id,!group_name,title,username,password,URL,id,Notes\n1,G,X,u,p,https://x.example,2,\n",
                "Buttercup"
            ),
            (
                "\"modelType\",\"modelVersion\",\"url\",\"username\",\"password\",\"notes\",\"favorite\",\"title\"\n\"Account\",\"2\",\"https://x.example\",\"u\",\"p\",\"\",\"false\",\"X\"\n",
                "SaferPass"
            ),
            ("name,tags,url,username,password,notes\nX,t,https://x.example,u,p,\n", "Padlock"),
            (
                ",ainfo,autosubmit,Notes,Password,Type,Title,URL,Username\n,u,Default,,p,Login,X,https://x.example,u\n",
                "1Password 7 (all fields)"
            ),
            (
                "username,username2,username3,title,password,note,url,category,otpSecret\nu,,,X,p,,https://x.example,,\n",
                "Dashlane"
            ),
        ])
    func unsupportedCSV(_ file: String, _ manager: String) throws {
        for format in [nil, ImportFormat.chrome, .safari] {
            let reason = try #require(failure(Array(file.utf8), format: format))
            #expect(reason.contains("a \(manager) CSV") && reason.contains("not supported"), "\(reason)")
        }
    }

    @Test("1Password 4's CSV (Safari's columns but OTPAuth, in its own order) is read as 1Password's")
    func onePassword4() throws {
        let batch = try ImportSamples.read("shapes/1password4.csv")
        #expect(batch.format == .onePasswordCSV)
        let plan = try ImportSamples.plan(batch)
        #expect(plan.addedCount == 2)
        #expect(try #require(plan.added("Mail")).notes == "two\nlines")
        // Safari's own header still reads as Safari's; --format finds the version of a format that fits.
        #expect(
            try self.batch("Title,URL,Username,Password,Notes,OTPAuth\nX,https://x.example,u,p,,\n").format == .safari)
        let forced = try self.batch(
            "title,notes,username,password,url\nX,,u,p,https://x.example\n", format: .onePasswordCSV)
        #expect(forced.entries.first?.locations == ["https://x.example"])
        let legacyFirefox = try self.batch("hostname,username,password\nhttps://x.example,u,p\n", format: .firefox)
        #expect(legacyFirefox.entries.first?.locations == ["https://x.example"])
    }

    @Test(
        "a KeePass database, a zip (.1pux) or gzip is named from its first bytes, --format or not",
        arguments: [
            (
                [0x03, 0xD9, 0xA2, 0x9A, 0x67, 0xFB, 0x4B, 0xB5, 0x00, 0x00, 0x04, 0x00] as [UInt8],
                "a KeePass database"
            ),
            ([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00], "a zip archive"),
            ([0x1F, 0x8B, 0x08, 0x00, 0xFF], "gzip"),
        ])
    func binaryFiles(_ bytes: [UInt8], _ named: String) throws {
        for format in [nil, ImportFormat.keepassXML, .chrome] {
            let reason = try #require(failure(bytes + Array(repeating: 0xFF, count: 32), format: format))
            #expect(reason.contains(named) && !reason.contains("UTF-8"), "\(reason)")
        }
    }

    @Test("Enpass's JSON is named, not read as Bitwarden's")
    func enpassJSON() throws {
        let json = """
            {"folders": [], "items": [{"category": "login", "template_type": "login.default", "title": "aib",
              "fields": [{"label": "Password", "sensitive": 1, "type": "password", "value": "pw"}]}]}
            """
        let reason = try #require(failure(Array(json.utf8)))
        #expect(reason.contains("Enpass JSON") && reason.contains("not supported"), "\(reason)")
    }

    @Test("KeePassXC's sftp:// and smb:// URLs are services kept as written, not notes (issue 38)")
    func otherSchemesAreServices() throws {
        let csv = """
            "Group","Title","Username","Password","URL","Notes","TOTP","Icon","Last Modified","Created"
            "Root","Files","kim","f-pw","sftp://files.example:2222/home","","","0","2023-05-01T10:00:00Z","2022-01-01T09:00:00Z"
            "Root","NAS","kim","n-pw","smb://nas.example/share","","","0","2023-05-01T10:00:00Z","2022-01-01T09:00:00Z"

            """
        let plan = plan(try batch(csv), try vault())
        let files = try #require(plan.added("Files"))
        #expect(files.services.map(\.text) == ["sftp://files.example:2222/home"])
        #expect(files.notes == "", "\(files.notes)")
        #expect(try #require(plan.added("NAS")).services.map(\.text) == ["smb://nas.example/share"])
        #expect(plan.warnings.allSatisfy { !$0.contains("not a web address") }, "\(plan.warnings)")
    }

    @Test("a pass store with empty entries is read whole: they are listed as skipped, not refused (issue 38)")
    func passStoreEmptyEntry() throws {
        let store = try directory.freshPath("store")
        try FileManager.default.createDirectory(atPath: store + "/Web", withIntermediateDirectories: true)
        for (name, text) in [
            (".gpg-id", "kim@example.org\n"), ("Web/empty.example.gpg", ""), ("blank.gpg", "\n \n"),
            ("Web/mail.example.gpg", "m-pw\nlogin: kim\n"),
        ] {
            try text.write(toFile: store + "/" + name, atomically: false, encoding: .utf8)
        }
        let batch = try ImportReader.read(store, format: nil, decrypter: ImportSamples.plaintextDecrypter)
        #expect(batch.rejected.isEmpty, "\(batch.rejected)")
        let plan = try ImportSamples.plan(batch)
        #expect(plan.addedCount == 1)
        #expect(plan.added("Web/mail.example")?.username == "kim")
        let skipped = plan.steps.filter(isNotCredential)
        #expect(skipped.count == 2, "\(plan.steps.map(\.summary))")
        #expect(skipped.allSatisfy { "\($0.action)".contains("empty entry") }, "\(skipped.map { "\($0.action)" })")
    }

    @Test("a URL's user name and password are in no message and no summary; its site is kept")
    func userinfoNeverShown() throws {
        let csv =
            "name,url,username,password\nX,https://bob:hunter2@x.example/,bob,pw\nY,ftp://bob:hunter3@files.example/,bob,pw2\n"
        let plan = plan(try batch(csv), try vault())
        let texts = plan.warnings + plan.steps.map(\.summary) + plan.steps.map { "\($0.action)" }
        #expect(texts.allSatisfy { !$0.contains("hunter2") && !$0.contains("hunter3") }, "\(texts)")
        #expect(plan.steps[0].summary == "X · https://…@x.example/ · bob")
        #expect(plan.added("X")?.services.map(\.host) == ["x.example"])
        // What is kept in the notes has no password either.
        #expect(plan.additions.allSatisfy { !$0.credential.notes.contains("hunter") })
    }

    @Test(
        "KeePassXC's TOTP Seed and TOTP Settings, and KeeOTP's otp string, become the TOTP key, not notes (Steam refused with a warning)"
    )
    func keepassxcLegacyTOTP() throws {
        func entry(_ title: String, _ seed: String, _ settings: String?) -> String {
            """
            <Entry><String><Key>Title</Key><Value>\(title)</Value></String><String><Key>UserName</Key><Value>kim</Value></String>
            <String><Key>Password</Key><Value ProtectInMemory="True">pw-\(title)</Value></String>
            <String><Key>URL</Key><Value>https://\(title).example</Value></String>
            <String><Key>TOTP Seed</Key><Value ProtectInMemory="True">\(seed)</Value></String>
            \(settings.map { "<String><Key>TOTP Settings</Key><Value>\($0)</Value></String>" } ?? "")</Entry>
            """
        }
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <KeePassFile><Root><Group><Name>Root</Name>
            \(entry("a", "JBSWY3DPEHPK3PXP", "30;8"))
            \(entry("b", "key=JBSWY3DPEHPK3PXP&amp;size=7&amp;step=45", nil))
            \(entry("c", "JBSWY3DPEHPK3PXP", "30;S"))
            <Entry><String><Key>Title</Key><Value>d</Value></String><String><Key>UserName</Key><Value>kim</Value></String>
            <String><Key>Password</Key><Value>pw-d</Value></String><String><Key>URL</Key><Value>https://d.example</Value></String>
            <String><Key>otp</Key><Value ProtectInMemory="True">key=JBSWY3DPEHPK3PXP&amp;size=8&amp;step=60&amp;otpHashMode=SHA256</Value></String></Entry>
            </Group></Root></KeePassFile>
            """
        let plan = plan(try batch(xml), try vault())
        #expect(plan.addedCount == 4)
        // The KeeOTP plugin's otp string, as KeePassXC reads it.
        #expect(
            try #require(plan.added("d")).totp?.parameters
                == OneTimeParameters(algorithm: .sha256, digits: 8, period: 60))
        let a = try #require(plan.added("a"))
        #expect(a.totp?.parameters == OneTimeParameters(algorithm: .sha1, digits: 8, period: 30))
        #expect(a.notes == "")
        let b = try #require(plan.added("b"))
        #expect(b.totp?.parameters == OneTimeParameters(algorithm: .sha1, digits: 7, period: 45))
        let c = try #require(plan.added("c"))
        #expect(c.totp == nil)
        #expect(!c.notes.contains("JBSWY3DPEHPK3PXP"))
        #expect(plan.warnings.contains { $0.contains("one-time key is not imported") })
    }

    @Test(
        "entries without a URL (a server, a Wi-Fi password) become items without a site, named by title or username; importing twice adds them once"
    )
    func withoutURL() throws {
        let csv = """
            name,url,username,password,note
            dpbx@klivak.example,,dpbx,s3rver,a garbage address
            ,,router-admin,r0uter
            Site,https://site.example,kim,pw

            """
        let vault = try vault()
        let first = plan(try batch(csv), vault)
        #expect(first.invalidCount == 0)
        #expect(first.addedCount == 3)
        let server = try #require(first.added("dpbx@klivak.example"))
        #expect(server.services.isEmpty && server.username == "dpbx" && server.notes == "a garbage address")
        #expect(try #require(first.added("router-admin")).services.isEmpty)
        try first.apply(to: vault)
        let again = plan(try batch(csv), vault)
        #expect(again.addedCount == 0)
        #expect(again.steps.allSatisfy { if case .duplicate = $0.action { return true } else { return false } })
    }

    @Test("KeePass's protected custom strings become secret fields, the others text fields; none lands in the notes")
    func keepassProtectedStrings() throws {
        let xml = """
            <KeePassFile><Root><Group><Name>Root</Name><Entry>
            <String><Key>Title</Key><Value>1Password account</Value></String>
            <String><Key>UserName</Key><Value>kim@example.net</Value></String>
            <String><Key>Password</Key><Value ProtectInMemory="True">master</Value></String>
            <String><Key>URL</Key><Value>https://my.1password.com</Value></String>
            <String><Key>Secret Key</Key><Value ProtectInMemory="True">A3-ABCDEF-GHIJKL</Value></String>
            <String><Key>Team</Key><Value>family</Value></String>
            </Entry></Group></Root></KeePassFile>
            """
        let plan = plan(try batch(xml), try vault())
        let item = try #require(plan.added("1Password account"))
        #expect(item.field(named: "Secret Key")?.secret.map { plan.secret($0) } == "A3-ABCDEF-GHIJKL")
        #expect(item.field(named: "team")?.text == "family")
        #expect(item.notes == "")
    }

    @Test("the same account and password as the vault's: a secret field the export adds is added")
    func duplicateBringsField() throws {
        let vault = try vault()
        let github = try vault.add(
            services: [try ServiceIdentifier("github.com")], username: "kim", secret: try secure("same"))
        let json = """
            {"items": [{"type": 1, "name": "GH", "fields": [{"name": "backup code", "value": "9876", "type": 1}],
              "login": {"username": "kim", "password": "same", "uris": [{"uri": "https://github.com"}]}}]}
            """
        let plan = plan(try batch(json), vault)
        #expect(plan.steps[0].action == .enrich(github.id, "a field"))
        try plan.apply(to: vault)
        let field = try #require(try vault.credential(id: github.id.uuidString).field(named: "backup code"))
        #expect(field.secret.map { reference in vault.withSecret(reference) { Array($0) } } == Array("9876".utf8))
    }

    @Test("a Bitwarden organisation's export: each item's collections are kept (in the notes, like a folder)")
    func bitwardenCollections() throws {
        let json = """
            {"encrypted": false, "collections": [{"id": "c1", "name": "Ops"}, {"id": "c2", "name": "Shared"}],
             "items": [{"type": 1, "name": "Server", "collectionIds": ["c1", "c2"],
               "login": {"username": "root", "password": "pw", "uris": [{"uri": "https://server.example"}]}}]}
            """
        let plan = plan(try batch(json), try vault())
        #expect(plan.added("Server")?.notes == "collections: Ops, Shared")
    }
}
