import Foundation
import Platform
import Testing
@testable import Interchange
import ServiceMatching
import VaultModel

/// Every format, from a realistic sample: detected without `--format`, every field where it
/// belongs (quotes, commas and newlines in fields, unicode, several URLs, TOTP, times).
@Suite("Importing each format")
struct FormatImportTests {
    @Test("Chrome: BOM, CRLF (also inside a note, made LF), quoted comma and quote, a multi-line note, unicode")
    func chrome() throws {
        let batch = try ImportSamples.read("chrome.csv")
        #expect(batch.format == .chrome)
        let plan = try ImportSamples.plan(batch)
        #expect(plan.addedCount == 3)
        let github = try #require(plan.added("github.com"))
        #expect(plan.secret(github.secret) == "gh,pass\"1")
        #expect(github.username == "alice@example.com")
        #expect(github.services.map(\.text) == ["https://github.com/login"])
        let google = try #require(plan.added("accounts.google.com"))
        // The CRLF inside the quoted note is an LF in the vault.
        #expect(google.notes == "Recovery codes:\n1234 5678")
        #expect(plan.secret(google.secret) == "g00gle-Ü")
        let bank = try #require(plan.added("bank.example.co.uk"))
        #expect(bank.username == "Ålice")
        #expect(plan.secret(bank.secret) == "bänk pass")
    }

    @Test("Firefox: times in milliseconds kept as created, modified and last used")
    func firefox() throws {
        let batch = try ImportSamples.read("firefox.csv")
        #expect(batch.format == .firefox)
        let plan = try ImportSamples.plan(batch)
        #expect(plan.addedCount == 2)
        let mozilla = try #require(plan.additions.first { $0.credential.username == "alice" })
        #expect(mozilla.credential.created == Timestamp(millisecondsSince1970: 1_609_459_200_000))
        #expect(mozilla.credential.modified == Timestamp(millisecondsSince1970: 1_612_137_600_000))
        #expect(mozilla.lastUsed == Timestamp(millisecondsSince1970: 1_640_995_200_000))
        #expect(plan.secret(mozilla.credential.secret) == "fx-pass,1")
        let intranet = try #require(plan.additions.first { $0.credential.username == "bob" })
        #expect(intranet.credential.services.first?.port == 8443)
        #expect(plan.secret(intranet.credential.secret) == "p\"q")
    }

    @Test("Safari / Apple Passwords: the OTPAuth column becomes the one-time key")
    func safari() throws {
        let batch = try ImportSamples.read("safari.csv")
        #expect(batch.format == .safari)
        let plan = try ImportSamples.plan(batch)
        let example = try #require(plan.added("example.com (alice)"))
        #expect(example.notes == "two\nlines, with a comma")
        #expect(example.totp?.parameters == .standard)
        #expect(
            example.totp.map { plan.batch.secrets.withBytes(of: $0.key) { Array($0) } } == Array("Hello!".utf8) + [
                0xDE, 0xAD, 0xBE, 0xEF,
            ])
        let japanese = try #require(plan.added("日本 (ユーザー)"))
        #expect(japanese.username == "ユーザー")
        #expect(plan.secret(japanese.secret) == "パスワード")
        #expect(japanese.totp == nil)
    }

    @Test(
        "Bitwarden CSV: several URIs in one field, custom fields as text fields, the folder in the notes, a note as a note item"
    )
    func bitwardenCSV() throws {
        let batch = try ImportSamples.read("bitwarden.csv")
        #expect(batch.format == .bitwardenCSV)
        let plan = try ImportSamples.plan(batch)
        #expect(plan.addedCount == 3)
        let twitter = try #require(plan.added("Twitter"))
        #expect(twitter.services.map(\.text) == ["https://twitter.com", "https://x.com"])
        #expect(twitter.fields.map(\.name) == ["recovery", "pin"])
        #expect(twitter.field(named: "recovery")?.text == "abc-def")
        #expect(twitter.field(named: "pin")?.text == "1234")
        #expect(twitter.notes == "folder: Social")
        #expect(twitter.totp != nil)
        let router = try #require(plan.added("Router, home"))
        #expect(router.services.first?.hostKind == .ipv4)
        #expect(plan.secret(router.secret) == "pa\"ss")
        #expect(router.notes == "admin panel\nsecond line")
        #expect(plan.added("My note")?.kind == .note)
    }

    @Test(
        "Bitwarden JSON: URIs, an app link as a service, history, times, text and hidden fields, folder; a secure note as a note item"
    )
    func bitwardenJSON() throws {
        let batch = try ImportSamples.read("bitwarden.json")
        #expect(batch.format == .bitwardenJSON)
        let plan = try ImportSamples.plan(batch)
        #expect(plan.addedCount == 3)
        let github = try #require(plan.added("GitHub \"work\""))
        #expect(
            github.services.map(\.text) == [
                "https://github.com/login", "https://gist.github.com", "androidapp://com.github.android",
            ])
        #expect(github.notes.hasPrefix("Line 1\nLine 2 é"))
        #expect(!github.notes.contains("androidapp://"))
        // A text custom field is a text field; a hidden one (type 1) a secret field, never in the notes.
        #expect(github.field(named: "recovery email")?.text == "alice@work.example")
        #expect(github.field(named: "pin")?.secret.map { plan.secret($0) } == "4321")
        #expect(!github.notes.contains("4321") && !github.notes.contains("recovery email"))
        #expect(github.notes.contains("folder: Work"))
        #expect(plan.secret(github.secret) == "new-pass-🔑")
        #expect(github.totp?.parameters == OneTimeParameters(algorithm: .sha256, digits: 8, period: 60))
        #expect(github.history.count == 1)
        #expect(github.history.first.map { plan.secret($0.secret) } == "old-pass-1")
        #expect(github.created.description == "2022-12-24T18:00:00.000Z")
        #expect(github.modified.description == "2023-03-01T12:30:45.123Z")
        #expect(!plan.warnings.contains { $0.contains("androidapp://") })
        let shop = try #require(plan.added("Shop"))
        #expect(shop.services.map(\.text) == ["shop.example.com"])
        #expect(plan.added("Wi-Fi")?.kind == .note)
    }

    @Test("KeePassXC CSV: groups (without the root), a scheme-less URL with a path, TOTP, times")
    func keepassxcCSV() throws {
        let batch = try ImportSamples.read("keepassxc.csv")
        #expect(batch.format == .keepassxcCSV)
        let plan = try ImportSamples.plan(batch)
        let gitlab = try #require(plan.added("GitLab"))
        #expect(gitlab.notes == "")
        #expect(gitlab.totp != nil)
        #expect(gitlab.created.description == "2022-01-01T09:00:00.000Z")
        #expect(gitlab.modified.description == "2023-05-01T10:00:00.000Z")
        let jira = try #require(plan.added("Jira"))
        #expect(jira.services.map(\.text) == ["https://jira.example.com/secure/Dashboard.jspa"])
        #expect(jira.notes == "multi\nline ünïcode\n\ngroup: Work")
        #expect(plan.secret(jira.secret) == "ji\"ra,1")
    }

    @Test("KeePass 2 XML: entities and CDATA, extra URLs, custom strings, TimeOtp, history, the recycle bin left out")
    func keepassXML() throws {
        let batch = try ImportSamples.read("keepass.xml")
        #expect(batch.format == .keepassXML)
        let plan = try ImportSamples.plan(batch)
        #expect(plan.addedCount == 2)
        #expect(plan.added("Deleted") == nil)
        let mail = try #require(plan.added("Mail — Fastmail"))
        #expect(plan.secret(mail.secret) == "p<a>ss\"w0rd")
        #expect(mail.services.map(\.text) == ["https://www.fastmail.com/login/", "https://app.fastmail.com"])
        #expect(mail.notes.hasPrefix("First & second\n<raw> & text"))
        #expect(mail.field(named: "Security question")?.text == "first pet")
        #expect(!mail.notes.contains("Security question"))
        #expect(mail.notes.contains("group: Personal") == false)
        #expect(mail.totp?.parameters.digits == 8)
        // Two earlier versions with one password: one previous password, replaced when the
        // version that changed it was saved.
        #expect(mail.history.map { plan.secret($0.secret) } == ["first-pass"])
        #expect(mail.history.first?.replaced.description == "2023-05-01T10:00:00.000Z")
        #expect(mail.importedSecretSet == nil, "its history tells when its password was set")
        #expect(mail.secretSet.description == "2023-05-01T10:00:00.000Z")
        let nas = try #require(plan.added("NAS"))
        #expect(nas.services.first?.port == 5001)
        #expect(nas.notes == "group: Servers")
        #expect(
            plan.additions.first { $0.credential.title == "Mail — Fastmail" }?.lastUsed?.description
                == "2023-06-01T08:00:00.000Z")
    }

    @Test("KeePassXC XML: KDBX 4 binary times and the otp URI")
    func keepassxcXML() throws {
        let plan = try ImportSamples.plan(try ImportSamples.read("keepassxc.xml"))
        let gitlab = try #require(plan.added("GitLab"))
        #expect(gitlab.created.description == "2022-01-01T00:00:00.000Z")
        #expect(gitlab.modified.description == "2023-05-01T10:00:00.000Z")
        // No old versions kept: its password was set by its Last Modified at the latest, which
        // is what audit's "old" counts from, not its Created (issue 38).
        #expect(gitlab.importedSecretSet?.description == "2023-05-01T10:00:00.000Z")
        #expect(gitlab.secretSet.description == "2023-05-01T10:00:00.000Z")
        #expect(gitlab.totp?.parameters == .standard)
        #expect(gitlab.notes == "")
    }

    @Test("1Password CSV: tags and OTPAuth, an IDN URL")
    func onePassword() throws {
        let batch = try ImportSamples.read("1password.csv")
        #expect(batch.format == .onePasswordCSV)
        let plan = try ImportSamples.plan(batch)
        let dropbox = try #require(plan.added("Dropbox"))
        #expect(dropbox.notes == "note, with comma\n\narchived: false\ntags: work,cloud")
        #expect(dropbox.totp != nil)
        let cafe = try #require(plan.added("Café"))
        #expect(cafe.services.first?.host == "xn--caf-dma.example.fr")
        #expect(plan.secret(cafe.secret) == "c\"afé")
    }

    @Test("LastPass CSV: extra as notes, grouping kept, secure notes (http://sn) as note items")
    func lastPass() throws {
        let batch = try ImportSamples.read("lastpass.csv")
        #expect(batch.format == .lastPassCSV)
        let plan = try ImportSamples.plan(batch)
        #expect(plan.addedCount == 3)
        let amazon = try #require(plan.added("Amazon"))
        #expect(amazon.notes == "Prime account\n\ngroup: Shopping")
        let microsoft = try #require(plan.added("Microsoft"))
        #expect(plan.secret(microsoft.secret) == "ms,pass")
        #expect(microsoft.totp != nil)
        #expect(plan.added("DB server")?.kind == .note)
        #expect(plan.added("DB server")?.field(named: "hostname")?.text == "db.example.com")
    }

    @Test(
        "pass / gopass store: site from a line or the path, login from a line or the file name, otpauth and totp lines")
    func passStore() throws {
        let batch = try ImportSamples.read("pass-store")
        #expect(batch.format == .pass)
        let plan = try ImportSamples.plan(batch)
        let github = try #require(plan.added("github.com"))
        #expect(github.username == "alice")
        #expect(github.services.map(\.text) == ["github.com"])
        #expect(github.totp != nil)
        #expect(github.notes == "recovery: 1111-2222")
        #expect(plan.secret(github.secret) == "gh-pass")
        let fastmail = try #require(plan.added("Email/fastmail.com/alice"))
        #expect(fastmail.services.map(\.text) == ["fastmail.com"])
        #expect(fastmail.username == "alice")
        #expect(plan.secret(fastmail.secret) == "fm-päss")
        let example = try #require(plan.added("gopass/example.org"))
        #expect(example.username == "bob")
        #expect(example.services.map(\.text) == ["https://example.org/login"])
        #expect(example.totp != nil)
        #expect(example.notes == "note: hi there")
        // misc/wifi names no site: an item without a site, titled by its path.
        #expect(plan.invalidCount == 0)
        #expect(try #require(plan.added("misc/wifi")).services.isEmpty)
    }
}

/// Real exports, not written by hand: a database made with `keepassxc-cli db-create` and `add`
/// (KeePassXC 2.7.4 from Debian), exported with `keepassxc-cli export -f csv` and `-f xml`. Its
/// root group is named "Passwords", not "Root" (which the hand-written sample assumed).
@Suite("Importing real KeePassXC exports")
struct RealKeePassXCExportTests {
    @Test(
        "keepassxc-cli's CSV and XML give the same two credentials, the root group dropped whatever its name",
        arguments: ["csv", "xml"])
    func keepassxcCLI(_ kind: String) throws {
        let batch = try ImportSamples.read("keepassxc-cli-2.7.4.\(kind)")
        #expect(batch.format == (kind == "csv" ? .keepassxcCSV : .keepassXML))
        let plan = try ImportSamples.plan(batch)
        #expect(plan.addedCount == 2 && plan.invalidCount == 0)
        let github = try #require(plan.added("GitHub — work"))
        #expect(plan.secret(github.secret) == "gh,pa\"ss")
        #expect(github.username == "alice")
        #expect(github.services.map(\.text) == ["https://github.com/login"])
        #expect(github.notes == "")
        let jira = try #require(plan.added("Jira"))
        #expect(plan.secret(jira.secret) == "ji")
        #expect(jira.services.map(\.text) == ["https://jira.example.com/secure"])
        #expect(jira.notes == "multi\nline ünï\n\ngroup: Work")
        #expect(jira.created.description == "2026-11-26T00:54:12.000Z")
    }
}
