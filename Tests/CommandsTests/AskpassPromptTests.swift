// The prompts git, OpenSSH and sudo really print (their format strings, copied from the
// programs: `strings` of Debian bookworm's git 2.39, ssh/ssh-add 9.2 and sudo 1.9.13), read back
// into what they ask; generated users, hosts, URLs and paths in those formats read back to
// themselves; and the prompts that must not be answered.

import PwtuiTestSupport
import Testing
import VaultModel
@testable import Commands

@Suite("askpass: the prompts it reads")
struct AskpassPromptTests {
    @Test(
        "each program's prompt, exactly as printed",
        arguments: [
            ("Username for 'https://github.com': ", AskpassPrompt.gitUsername(url: "https://github.com")),
            (
                "Password for 'https://octocat@github.com': ",
                AskpassPrompt.gitPassword(url: "https://github.com", user: "octocat")
            ),
            (
                "Password for 'http://alice@127.0.0.1:8080/repo.git': ",
                AskpassPrompt.gitPassword(url: "http://127.0.0.1:8080/repo.git", user: "alice")
            ),
            ("Password for 'https://git.example': ", AskpassPrompt.gitPassword(url: "https://git.example", user: nil)),
            ("alice@build.example's password: ", AskpassPrompt.sshPassword(user: "alice", host: "build.example")),
            ("(alice@build.example) Password: ", AskpassPrompt.sshPassword(user: "alice", host: "build.example")),
            ("root@::1's password: ", AskpassPrompt.sshPassword(user: "root", host: "::1")),
            (
                "Enter passphrase for key '/home/alice/.ssh/id_ed25519': ",
                AskpassPrompt.keyPassphrase(path: "/home/alice/.ssh/id_ed25519")
            ),
            (
                "Enter passphrase for /home/alice/.ssh/id_rsa: ",
                AskpassPrompt.keyPassphrase(path: "/home/alice/.ssh/id_rsa")
            ),
            (
                "Enter passphrase for /tmp/k (will confirm each use): ",
                AskpassPrompt.keyPassphrase(path: "/tmp/k")
            ),
            ("[sudo] password for alice: ", AskpassPrompt.sudoPassword(user: "alice")),
            // Without the trailing space, or with a line break (a wrapper's echo), the same.
            ("[sudo] password for alice:", AskpassPrompt.sudoPassword(user: "alice")),
            ("[sudo] password for alice: \n", AskpassPrompt.sudoPassword(user: "alice")),
        ])
    func realPrompts(prompt: String, expected: AskpassPrompt) {
        #expect(AskpassPrompt(prompt) == expected)
    }

    @Test(
        "a question that is not a password prompt is not answered",
        arguments: [
            "Are you sure you want to continue connecting (yes/no/[fingerprint])? ",
            "Allow use of key /home/alice/.ssh/id_ed25519?\nKey fingerprint SHA256:abc.",
            "Enter passphrase for PKCS#11: ",
            "Enter alice@host's old password: ",
            "Enter alice@host's new password: ",
            "(alice@host) Verification code: ",
            "Password: ",
            "Username: ",
            "Username for '': ",
            "Username for 'https://alice@host': ",  // git never names a user when it asks for one
            "[sudo] password for : ",
            "Enter PIN for 'token': ",
            "",
            ":",
            "'s password: ",
            "@host's password: ",
        ])
    func unknownPrompts(prompt: String) {
        #expect(AskpassPrompt(prompt) == nil)
    }

    /// Users, hosts and paths as the programs may print them: letters, digits, and the
    /// punctuation accounts and files really carry (a user may even hold an '@').
    private static func word(_ random: inout SeededGenerator, from alphabet: String, length: ClosedRange<Int>) -> String
    {
        let characters = Array(alphabet)
        return String(
            (0 ..< Int.random(in: length, using: &random)).map { _ in characters.randomElement(using: &random)! })
    }

    @Test("generated users, hosts, ports, paths and keys in each program's format read back to themselves")
    func generatedVariants() {
        var random = SeededGenerator(seed: 25)
        let userAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-@+"
        let hostAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789-"
        let pathAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789._-/ "
        for _ in 0 ..< 500 {
            let user = "u" + Self.word(&random, from: userAlphabet, length: 0 ... 12)
            let host =
                (1 ... Int.random(in: 1 ... 3, using: &random)).map { _ in
                    "h" + Self.word(&random, from: hostAlphabet, length: 0 ... 8)
                }.joined(separator: ".")
            let port = Bool.random(using: &random) ? ":\(Int.random(in: 1 ... 65535, using: &random))" : ""
            let path = Bool.random(using: &random) ? "/" + Self.word(&random, from: "abc/._-", length: 0 ... 10) : ""
            let scheme = Bool.random(using: &random) ? "https" : "http"
            let url = "\(scheme)://\(host)\(port)\(path)"
            let userURL = "\(scheme)://\(user)@\(host)\(port)\(path)"
            let keyPath = "/" + Self.word(&random, from: pathAlphabet, length: 1 ... 40) + "k"

            #expect(AskpassPrompt("Username for '\(url)': ") == .gitUsername(url: url))
            #expect(AskpassPrompt("Password for '\(userURL)': ") == .gitPassword(url: url, user: user))
            #expect(AskpassPrompt("\(user)@\(host)'s password: ") == .sshPassword(user: user, host: host))
            #expect(AskpassPrompt("(\(user)@\(host)) Password: ") == .sshPassword(user: user, host: host))
            #expect(AskpassPrompt("Enter passphrase for key '\(keyPath)': ") == .keyPassphrase(path: keyPath))
            #expect(AskpassPrompt("Enter passphrase for \(keyPath): ") == .keyPassphrase(path: keyPath))
            let sudoUser = user.filter { $0 != "@" }
            #expect(AskpassPrompt("[sudo] password for \(sudoUser): ") == .sudoPassword(user: sudoUser))
            // A prompt cut anywhere before its colon is no prompt: nothing is answered.
            let prompt = "\(user)@\(host)'s password: "
            let cut = String(prompt.prefix(Int.random(in: 0 ..< prompt.count - 2, using: &random)))
            #expect(AskpassPrompt(cut) == nil, "\(cut)")
        }
    }

    @Test("which credential each prompt asks for: the host's, with the prompt's user, in the same-host tiers")
    func questions() throws {
        let git = try Askpass.question(
            for: .gitPassword(url: "https://github.com", user: "octocat"), hostName: "box")
        #expect(git.field == .password)
        #expect(git.queries.map(\.username) == ["octocat"])
        #expect(git.queries.map { $0.services.map(\.text) } == [["https://github.com"]])
        #expect(git.queries.map(\.tiers) == [CredentialQuery.sameHost])

        let ipv6 = try Askpass.question(for: .sshPassword(user: "root", host: "::1"), hostName: nil)
        #expect(ipv6.queries.first?.services.first?.hostKind == .ipv6)

        let sudo = try Askpass.question(for: .sudoPassword(user: "alice"), hostName: "build-7")
        #expect(sudo.queries.first?.services.map(\.text) == ["build-7"])
        #expect(sudo.queries.first?.username == "alice")

        let key = try Askpass.question(for: .keyPassphrase(path: "/home/a/.ssh/id_ed25519"), hostName: nil)
        #expect(key.queries.map(\.title) == ["/home/a/.ssh/id_ed25519", "id_ed25519"])

        // OpenSSH prints at most 100 bytes of the path: such a path may be cut, so no answer.
        let long = "/" + String(repeating: "d", count: 99)
        #expect(throws: CommandFailure.self) {
            try Askpass.question(for: .keyPassphrase(path: long), hostName: nil)
        }
    }
}
