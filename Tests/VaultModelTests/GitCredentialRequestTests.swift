// git's credential-helper request as git writes it (`man git-credential`), and the helper's memory
// of rejected passwords.

import Foundation
import Platform
import PwtuiTestSupport
import Testing
import VaultCrypto
@testable import VaultModel

@Suite("git credential request")
struct GitCredentialRequestTests {
    func parse(_ text: String) throws -> GitCredentialRequest {
        try GitCredentialRequest.parse(try secure(text))
    }

    func password(_ request: borrowing GitCredentialRequest) -> String? {
        switch request.password {
        case .some(let secret): return secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        case .none: return nil
        }
    }

    @Test("the attributes git 2.39 sends, a CRLF variant, and the blank line that ends them")
    func gitsAttributes() throws {
        for ending in ["\n", "\r\n"] {
            let text = [
                "protocol=https", "host=git.example.com:8443", "path=org/repo.git", "username=alice", "password=pa=ss",
                "", "host=after.example.com",
            ]
            .joined(separator: ending)
            let request = try parse(text)
            #expect(
                request.fields == [
                    "protocol": "https", "host": "git.example.com:8443", "path": "org/repo.git", "username": "alice",
                ])
            #expect(password(request) == "pa=ss", "only the first '=' separates")
            #expect(request.url() == "https://git.example.com:8443/org/repo.git")
        }
    }

    @Test(
        "empty values are absent; unknown attributes, secrets other than the password and lines without '=' are not kept"
    )
    func dropped() throws {
        let request = try parse(
            "protocol=https\nhost=h.example\nusername=\npassword=\noauth_refresh_token=refresh\nwwwauth[]=Basic\ncapability[]=authtype\nquit=1\nno equals\n=empty key\nfuture=x\n"
        )
        #expect(request.fields == ["protocol": "https", "host": "h.example"])
        #expect(request.username == nil && request.password == nil)
    }

    @Test(
        "url= is read as its parts, as git reads it: it replaces what came before, later lines override it, user information is decoded"
    )
    func url() throws {
        var request = try parse(
            "protocol=http\nhost=old.example\nusername=old\npassword=old\nurl=https://al%69ce:p%40ss%3Aword@git.example.com:8443/org/repo.git//\nusername=bob\n"
        )
        #expect(
            request.fields == [
                "protocol": "https", "host": "git.example.com:8443", "path": "org/repo.git", "username": "bob",
            ])
        #expect(password(request) == "p@ss:word")
        request = try parse("url=https://git.example.com\n")
        #expect(request.fields == ["protocol": "https", "host": "git.example.com"] && request.password == nil)
        request = try parse("url=https://git.example.com/\n")
        #expect(request.path == nil, "a bare '/' is no path")
        request = try parse("url=https://a@b@git.example.com/x@y\n")
        #expect(
            request.fields["username"] == "a" && request.fields["host"] == "b@git.example.com" && request.path == "x@y",
            "user information ends at the first '@' before the path, as in git")
        request = try parse("host=kept.example\nurl=not a url\n")
        #expect(request.fields.isEmpty, "a url without '://' names nothing, and still clears")
    }

    @Test("protocols other than http(s) name no service; a path that a URL must escape is escaped")
    func service() throws {
        #expect(try parse("protocol=ssh\nhost=git.example.com\n").service() == nil)
        #expect(try parse("protocol=cert\nhost=\n").service() == nil)
        #expect(try parse("protocol=https\n").service() == nil)
        let spaced = try parse("protocol=HTTPS\nhost=Git.Example.com\npath=my repo?#%/ü.git\n")
        #expect(spaced.url() == "https://Git.Example.com/my%20repo%3F%23%25/ü.git")
        let service = try #require(try spaced.service())
        #expect(service.host == "git.example.com" && service.path == "/my%20repo%3F%23%25/ü.git")
    }

    @Test("reading stops at the blank line, leaving what follows unread, even while the writer keeps the pipe open")
    func reading() throws {
        var pipe: [Int32] = [0, 0]
        try #require(Foundation.pipe(&pipe) == 0)
        defer { close(pipe[0]) }
        let text = Array("protocol=https\r\nhost=a.example\r\n\r\nhost=b.example\n".utf8)
        #expect(write(pipe[1], text, text.count) == text.count)
        // The writer stays open: a reader waiting for the end of input would block here.
        let request = try GitCredentialRequest.read(from: pipe[0])
        #expect(request.fields["host"] == "a.example")
        var rest = [UInt8](repeating: 0, count: 64)
        close(pipe[1])
        let count = read(pipe[0], &rest, 64)
        #expect(
            String(decoding: rest.prefix(max(count, 0)), as: UTF8.self) == "host=b.example\n",
            "nothing after the blank line was read")
    }
}

extension GitCredentialRequestTests {
    @Test(
        "any input: only the known text attributes are kept, never empty, and a password (also one inside url=) never lands in them"
    )
    func anyInput() throws {
        var generator = SystemRandomNumberGenerator()
        let keys = [
            "protocol", "host", "path", "username", "url", "oauth_refresh_token", "wwwauth[]", "capability[]", "quit",
            "", "x",
        ]
        // None of these holds the password's marker "PW7".
        let pieces = ["https://", "h.example", "/", "%", "%41", "%4", "@", ":", "=", "\r", " ", "é", "\u{0}", "user"]
        func randomValue(from pieces: [String] = pieces) -> String {
            (0 ..< Int.random(in: 0 ... 4, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? ""
            }.joined()
        }
        for _ in 0 ..< 3000 {
            var lines: [String] = []
            for _ in 0 ..< Int.random(in: 0 ... 6, using: &generator) {
                switch Int.random(in: 0 ..< 6, using: &generator) {
                case 0: lines.append("password=PW7" + randomValue())
                case 1:
                    lines.append("url=https://u" + (Bool.random(using: &generator) ? ":PW7" : "") + "@" + randomValue())
                case 2: lines.append(randomValue())  // no '=' (or one somewhere inside)
                default:
                    // A url= with a userinfo of its own carries a password (`https://::@` has ":"),
                    // which is then rightly the request's: only case 1 puts one there, marked.
                    let key = keys.randomElement(using: &generator) ?? ""
                    lines.append(
                        key + "=" + (key == "url" ? randomValue(from: pieces.filter { $0 != "@" }) : randomValue()))
                }
            }
            let text = lines.joined(separator: Bool.random(using: &generator) ? "\n" : "\r\n")
            let request = try parse(text)
            #expect(
                Set(request.fields.keys).isSubset(of: GitCredentialRequest.textAttributes), "\(text.debugDescription)")
            #expect(!request.fields.values.contains { $0.isEmpty || $0.contains("\n") }, "\(text.debugDescription)")
            #expect(
                !request.fields.values.contains { $0.contains("PW7") },
                "a password went into plain text: \(text.debugDescription)")
            if let secret = password(request) { #expect(secret.hasPrefix("PW7"), "\(text.debugDescription)") }
        }
    }
}

@Suite("git rejections")
struct GitRejectionsTests {
    func credential(created: Int64, replaced: [Int64] = []) -> Credential {
        Credential(
            id: UUID(), title: "", services: [], username: "alice", secret: SecretReference(offset: 0, count: 0),
            created: Timestamp(millisecondsSince1970: created), modified: Timestamp(millisecondsSince1970: 99),
            history: replaced.map {
                PreviousSecret(
                    secret: SecretReference(offset: 0, count: 0), replaced: Timestamp(millisecondsSince1970: $0))
            })
    }

    @Test("a credential's secret-set time moves with the secret only")
    func secretSet() {
        var entry = credential(created: 10)
        #expect(entry.secretSet.millisecondsSince1970 == 10)
        entry.title = "renamed"
        entry.modified = Timestamp(millisecondsSince1970: 500)
        #expect(entry.secretSet.millisecondsSince1970 == 10, "a new title is not a new password")
        entry.history = credential(created: 10, replaced: [40, 30]).history
        #expect(
            entry.secretSet.millisecondsSince1970 == 40,
            "the latest replacement, whatever the history's order after a merge")
    }

    @Test("a mark holds while the password is the rejected one, for the origin that rejected it, and survives the file")
    func marks() throws {
        let entry = credential(created: 10)
        var marks = GitRejections()
        marks.markRejected(entry.id, secretSet: entry.secretSet, at: "https://git.example.com:443")
        #expect(marks.isRejected(entry, at: "https://git.example.com:443"))
        #expect(!marks.isRejected(entry, at: "https://other.example.com:443"))
        var changed = entry
        changed.history = credential(created: 10, replaced: [20]).history
        #expect(!marks.isRejected(changed, at: "https://git.example.com:443"), "a new password is not the rejected one")

        let reread = GitRejections(text: marks.text + "garbage\nnot-a-uuid\tx\t1\n")
        #expect(reread == marks, "bad lines are skipped")
        #expect(marks.text == "\(entry.id.uuidString.lowercased())\thttps://git.example.com:443\t10\n")
        let cleared = marks.clear(entry.id, at: "https://git.example.com:443")
        #expect(cleared && !marks.isRejected(entry, at: "https://git.example.com:443"))
        let again = marks.clear(entry.id, at: "https://git.example.com:443")
        #expect(!again)
    }
}
