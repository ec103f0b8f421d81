import Foundation
import Platform
import ServiceMatching
import VaultCrypto
import VaultModel

/// A vault on disk with five credentials (one with Japanese title and user name), opened with the
/// real Argon2id (interactive cost), in a directory removed with the value.
package struct SampleVault {
    package static let password = "picker master"
    package static let secrets = ["hunter2-github", "s3cret-api", "gitlab-pw", "org-pw", "日本-pw"]
    package let directory: TemporaryDirectory
    package let path: String
    package let vault: Vault

    package init() throws {
        directory = TemporaryDirectory("sample")
        path = try directory.freshPath("v.pwtui")
        let clock = Clock { Timestamp(millisecondsSince1970: 1_700_000_000_000) }
        var environment = VaultEnvironment.cheapKeyDerivation
        environment.clock = clock
        vault = try Vault.create(
            at: path, password: try secure(Self.password), parameters: .cheapest, environment: environment)
        let entries: [(String, String, String)] = [
            ("https://github.com/login", "alice", "GitHub"), ("api.github.com", "bot", "GitHub API"),
            ("gitlab.com", "alice", "GitLab"), ("example.org", "bob", "Example"),
            ("nihon.example.jp", "日本語ユーザー", "日本語のタイトル"),
        ]
        for (index, entry) in entries.enumerated() {
            try vault.add(
                services: [try ServiceIdentifier(entry.0)], username: entry.1,
                secret: try secure(Self.secrets[index]), title: entry.2)
        }
        try vault.save()
    }

    /// Every credential of `vault` for `requests`, as the picker lists them, ranked with the
    /// system's suffix list.
    package static func rank(_ vault: Vault, for requests: [ServiceIdentifier]) -> [RankedCredential] {
        CredentialRanking.rank(
            vault.contents.credentials, for: requests,
            context: RankingContext(suffixes: LibPSL() ?? NoPublicSuffixList()))
    }

    /// This vault's credentials for `request` (nil: none).
    package func ranked(for request: String?) throws -> [RankedCredential] {
        Self.rank(vault, for: try request.map { [try ServiceIdentifier($0)] } ?? [])
    }
}
