import FoundationEssentials
import Passwords
import ServiceMatching
import VaultCrypto
import VaultModel

/// `pwtui demo`: the picker on a throwaway vault of about fifty realistic credentials, opened
/// for https://github.com/login, its master password shown on the password screen. The vault
/// lives in a fresh temporary directory and is deleted afterwards.
public enum DemoVault {
    static let password = "correct horse battery staple"

    /// (service, username, title) for the sample vault.
    static let samples: [(String, String, String)] = [
        ("https://github.com/login", "alice", "GitHub"), ("github.com", "alice-work", "GitHub (work)"),
        ("api.github.com", "deploy-bot", "GitHub API token"), ("gist.github.com", "alice", "Gist"),
        ("alice.github.io", "alice", "Pages: alice"), ("gitlab.com", "alice", "GitLab"),
        ("bitbucket.org", "alice", "Bitbucket"), ("https://accounts.google.com", "alice@gmail.com", "Google"),
        ("mail.google.com", "alice@gmail.com", "Gmail"),
        ("login.microsoftonline.com", "alice@contoso.com", "Microsoft 365"),
        ("outlook.live.com", "alice@outlook.com", "Outlook"), ("www.amazon.com", "alice@example.com", "Amazon"),
        ("www.amazon.co.uk", "alice@example.com", "Amazon UK"), ("www.ebay.com", "alice_sells", "eBay"),
        ("www.paypal.com", "alice@example.com", "PayPal"), ("digital.mybank.com", "100234987", "MyBank"),
        ("www.digitalocean.com", "alice@example.com", "DigitalOcean"),
        ("console.aws.amazon.com", "alice-admin", "AWS console"),
        ("portal.azure.com", "alice@contoso.com", "Azure"),
        ("console.cloud.google.com", "alice@gmail.com", "Google Cloud"),
        ("app.netlify.com", "alice", "Netlify"), ("vercel.com", "alice", "Vercel"),
        ("www.dropbox.com", "alice@example.com", "Dropbox"), ("app.box.com", "alice@contoso.com", "Box"),
        ("slack.com", "alice@contoso.com", "Slack"), ("discord.com", "alice#4521", "Discord"),
        ("twitter.com", "alice_tweets", "Twitter"), ("www.linkedin.com", "alice@example.com", "LinkedIn"),
        ("www.reddit.com", "alice_reads", "Reddit"), ("news.ycombinator.com", "alice", "Hacker News"),
        ("stackoverflow.com", "alice@example.com", "Stack Overflow"), ("www.npmjs.com", "alice", "npm"),
        ("pypi.org", "alice", "PyPI"), ("crates.io", "alice", "crates.io"),
        ("hub.docker.com", "alice", "Docker Hub"), ("[::1]:8080", "admin", "Local dev server"),
        ("localhost:3000", "admin", "Local app"), ("192.168.1.1", "admin", "Home router"),
        ("*.intranet.contoso.com", "alice", "Contoso intranet"),
        ("webcredentials:*.example.com:8443", "alice", "Example staging"),
        ("www.netflix.com", "family@example.com", "Netflix"), ("open.spotify.com", "alice@example.com", "Spotify"),
        ("www.airbnb.com", "alice@example.com", "Airbnb"), ("www.booking.com", "alice@example.com", "Booking.com"),
        ("www.bücher.de", "alice", "Bücher"), ("www.rakuten.co.jp", "alice", "楽天"),
        ("www.bbc.co.uk", "alice@example.com", "BBC"), ("id.atlassian.com", "alice@contoso.com", "Atlassian"),
        ("www.notion.so", "alice@example.com", "Notion"),
        ("1password.com", "alice@example.com", "Old password manager"),
    ]

    /// `pwtui demo`: the picker on the sample vault; the choice goes where `pick`'s would.
    public static func run(output: CredentialField, in context: CommandContext) throws {
        let directory = FileManager.default.temporaryDirectory.path + "/pwtui-demo-" + UUID().uuidString
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/demo.pwtui"
        let vault = try Vault.create(
            at: path, password: try SecureBytes(copying: Array(password.utf8)), parameters: .interactive)
        for (index, sample) in samples.enumerated() {
            try vault.add(
                services: [try ServiceIdentifier(sample.0)], username: sample.1,
                secret: try PasswordGenerator.generate(), title: sample.2, rank: index == 1 ? 1 : 0)
        }
        try vault.save()
        try Picker.run(
            vaultPath: path, requests: [try ServiceIdentifier("https://github.com/login")],
            context: context, output: output,
            passwordHint: "Demo vault — the master password is: \(password)")
    }
}
