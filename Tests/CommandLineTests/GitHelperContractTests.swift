// git's own contract for credential helpers, against the real binary and the installed git.
//
// Two forms of the same tests:
// - git's own files: t/t0303-credential-external.sh with t/lib-credential.sh of the installed git
//   (Debian's 2.39.5), unpacked by `make git-tests` from Debian's source package (git is GPL-2.0,
//   so they are fetched, never kept here) and run by Tests/GitConformance/run-git-tests.sh.
// - every case of `helper_test` in git's current lib-credential.sh (a newer git than Debian's,
//   with four more cases), written out here as git's `check` runs them: `git credential ACTION`
//   with the request on stdin, then stdout and stderr compared whole. Each case builds on the
//   ones before it, as in git.

import Foundation
import Testing

@Suite("git's credential-helper contract (t0303, lib-credential.sh)")
struct GitHelperContractTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test(
        "git's own t0303-credential-external.sh, from the installed git's source, passes against git-credential-pwtui")
    func gitsOwnTestScript() throws {
        let gitTests = Self.packageRoot + "/.build/git-tests/t"
        try #require(
            FileManager.default.fileExists(atPath: gitTests + "/t0303-credential-external.sh"),
            "git's tests are not unpacked: run `make git-tests` (make test does)")
        let sandbox = try Sandbox()
        let result = try sandbox.run(
            "/bin/sh",
            [
                Self.packageRoot + "/Tests/GitConformance/run-git-tests.sh", gitTests,
                try Binaries.require(Binaries.pwtui),
            ], timeout: .seconds(300))
        let lines = result.out.split(separator: "\n")
        let passed = lines.filter { $0.hasPrefix("ok ") }
        #expect(result.exitCode == 0 && !lines.contains { $0.hasPrefix("not ok") }, "\(result)")
        // Debian's 2.39.5 has 12 cases in helper_test, and helper_test_timeout: run-git-tests.sh
        // gives it a helper whose agent locks after an idle second; locked, with no terminal, the
        // helper must say nothing on stderr (it printed its locked-vault advice: issue 38).
        #expect(passed.count >= 13, "\(result)")
        #expect(passed.contains { $0.contains("times out") }, "\(result)")
    }

    /// One of lib-credential.sh's `check` calls: the request, and git's whole stdout and stderr.
    struct Check {
        let action: String
        let input: [String]
        var stdout: [String] = []
        var stderr: [String] = []
        var config: [String] = []
    }

    /// git's askpass in lib-credential.sh: says what it was asked, answers "askpass-" and the
    /// prompt's first word.
    static let askpass = """
        #!/bin/sh
        echo >&2 askpass: $*
        what=$(echo $1 | cut -d" " -f1 | tr A-Z a-z | tr -cd a-z)
        echo "askpass-$what"
        """

    static func asked(_ host: String, user: String? = nil, protocol scheme: String = "https") -> [String] {
        (user == nil ? ["askpass: Username for '\(scheme)://\(host)':"] : [])
            + ["askpass: Password for '\(scheme)://\(user ?? "askpass-username")@\(host)':"]
    }

    static func fill(_ request: [String], answer: [String], asked: [String] = [], config: [String] = []) -> Check {
        Check(action: "fill", input: request, stdout: request + answer, stderr: asked, config: config)
    }

    static func approve(_ request: [String], config: [String] = []) -> Check {
        Check(action: "approve", input: request, config: config)
    }
    static func reject(_ request: [String]) -> Check { Check(action: "reject", input: request) }

    static let example = ["protocol=https", "host=example.com"]
    static let askpassAnswer = ["username=askpass-username", "password=askpass-password"]
    static let useHttpPath = "credential.usehttppath=true"

    /// helper_test of git's lib-credential.sh (git 2.50 and later), case by case.
    static let cases: [(name: String, checks: [Check])] = [
        ("has no existing data", [fill(example, answer: askpassAnswer, asked: asked("example.com"))]),
        ("stores password", [approve(example + ["username=store-user", "password=store-pass"])]),
        ("can retrieve password", [fill(example, answer: ["username=store-user", "password=store-pass"])]),
        (
            "requires matching protocol",
            [
                fill(
                    ["protocol=http", "host=example.com"], answer: askpassAnswer,
                    asked: asked("example.com", protocol: "http"))
            ]
        ),
        (
            "requires matching host",
            [fill(["protocol=https", "host=other.tld"], answer: askpassAnswer, asked: asked("other.tld"))]
        ),
        (
            "requires matching username",
            [
                fill(
                    example + ["username=other"], answer: ["password=askpass-password"],
                    asked: asked("example.com", user: "other"))
            ]
        ),
        (
            "requires matching path",
            [
                approve(
                    ["protocol=http", "host=path.tld", "path=foo.git", "username=user", "password=pass"],
                    config: [useHttpPath]),
                fill(
                    ["protocol=http", "host=path.tld", "path=bar.git"], answer: askpassAnswer,
                    asked: asked("path.tld/bar.git", protocol: "http"), config: [useHttpPath]),
            ]
        ),
        (
            "overwrites on store",
            [
                approve(example + ["username=user-overwrite", "password=pass1"]),
                approve(example + ["username=user-overwrite", "password=pass2"]),
                fill(example + ["username=user-overwrite"], answer: ["password=pass2"]),
                reject(example + ["username=user-overwrite", "password=pass2"]),
                fill(
                    example + ["username=user-overwrite"], answer: ["password=askpass-password"],
                    asked: asked("example.com", user: "user-overwrite")),
            ]
        ),
        (
            "can forget host",
            [
                reject(example),
                fill(example, answer: askpassAnswer, asked: asked("example.com")),
            ]
        ),
        (
            "can store multiple users",
            [
                approve(example + ["username=user1", "password=pass1"]),
                approve(example + ["username=user2", "password=pass2"]),
                fill(example + ["username=user1"], answer: ["password=pass1"]),
                fill(example + ["username=user2"], answer: ["password=pass2"]),
            ]
        ),
        (
            "does not erase a password distinct from input",
            [
                approve(example + ["username=user-distinct-pass", "password=pass1"]),
                reject(example + ["username=user-distinct-pass", "password=pass2"]),
                fill(example + ["username=user-distinct-pass"], answer: ["password=pass1"]),
            ]
        ),
        (
            "can forget user",
            [
                reject(example + ["username=user1"]),
                fill(
                    example + ["username=user1"], answer: ["password=askpass-password"],
                    asked: asked("example.com", user: "user1")),
            ]
        ),
        ("remembers other user", [fill(example + ["username=user2"], answer: ["password=pass2"])]),
        (
            "can store empty username",
            [
                approve(["protocol=https", "host=sso.tld", "username=", "password="]),
                fill(["protocol=https", "host=sso.tld"], answer: ["username=", "password="]),
            ]
        ),
        (
            "erases all matching credentials",
            [
                approve(example + ["username=user-erase1", "password=pass1"]),
                approve(example + ["username=user-erase2", "password=pass1"]),
                reject(example),
                fill(example, answer: askpassAnswer, asked: asked("example.com")),
            ]
        ),
        (
            "not confused by long header",
            [
                approve(["protocol=https", "host=victim.example.com", "username=user", "password=to-be-stolen"]),
                // git since 2.41 repeats wwwauth[] in fill's output; Debian's does not: compared without it.
                fill(
                    [
                        "protocol=https", "host=badguy.example.com",
                        "wwwauth[]=basic realm=" + String(repeating: "a", count: 1024 - 23) + "host=victim.example.com",
                    ],
                    answer: askpassAnswer, asked: asked("badguy.example.com")),
            ]
        ),
    ]

    @Test("every case of helper_test in git's current lib-credential.sh, stdout and stderr compared whole")
    func currentHelperTest() throws {
        let sandbox = try Sandbox.withVault()
        let git = try GitHarness(sandbox)
        try Self.askpass.write(toFile: git.askpass, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: git.askpass)
        for (name, checks) in Self.cases {
            for (step, check) in checks.enumerated() {
                let result = try git.credential(
                    check.action, check.input, helper: try git.scriptHelper, config: check.config)
                let stdout = result.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                    .filter { !$0.hasPrefix("wwwauth[]=") && !$0.isEmpty }
                let stderr = result.err.split(separator: "\n").map(String.init)
                let expectedStdout = check.stdout.filter { !$0.hasPrefix("wwwauth[]=") }
                #expect(
                    result.exitCode == 0 && stdout == expectedStdout && stderr == check.stderr,
                    "helper_test '\(name)', step \(step + 1) (\(check.action)): \(result)")
            }
        }
        // Nothing was deleted: a reject only sets a password aside (docs/git.md).
        #expect(try sandbox.listJSON().count == 10)
    }

    @Test(
        "helper_test_timeout of git's current lib-credential.sh: once the agent locked, the helper says nothing and git asks (issue 38)"
    )
    func currentHelperTestTimeout() throws {
        let sandbox = try Sandbox.withVault()
        let git = try GitHarness(sandbox)
        try Self.askpass.write(toFile: git.askpass, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: git.askpass)
        // A helper whose credentials expire: the agent's, after one idle second, with no
        // descriptor to unlock again (run-git-tests.sh gives git's own t0303 the same helper).
        try sandbox.startUnlockedAgent(idleTimeout: "1s")
        defer { sandbox.stopAgent() }
        let helper = "!'\(try Binaries.require(Binaries.pwtui))' git-credential"
        let host = ["protocol=https", "host=timeout.tld"]
        let approve = try git.credential("approve", host + ["username=user", "password=pass"], helper: helper)
        #expect(approve.exitCode == 0 && approve.out.isEmpty && approve.err.isEmpty, "\(approve)")
        Thread.sleep(forTimeInterval: 2)
        let fill = try git.credential("fill", host, helper: helper)
        let stdout = fill.out.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("wwwauth[]=") }
        #expect(fill.exitCode == 0 && stdout == host + Self.askpassAnswer, "\(fill)")
        #expect(fill.err.split(separator: "\n").map(String.init) == Self.asked("timeout.tld"), "\(fill)")
    }
}
