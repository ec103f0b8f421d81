import Testing
@testable import ServiceMatching

/// A URL's `user:password@` is where people paste passwords: typed, it is refused without being
/// repeated; read back from a vault written before that rule, it is dropped.
@Suite struct ServiceIdentifierUserinfoTests {
    @Test(arguments: [
        "https://alice:s3cr3t-pw@github.com", "https://s3cr3t-pw@github.com/login?x=1",
        "http://a:b:s3cr3t-pw@example.com:8080/path",
    ])
    func typedUserinfoIsRefusedWithoutEchoingIt(_ text: String) {
        do {
            _ = try ServiceIdentifier(text)
            Issue.record("\(text) was accepted")
        } catch {
            let message = "\(error)"
            #expect(!message.contains("s3cr3t-pw"), "the message repeats the secret: \(message)")
            #expect(message.contains("--username"))
        }
    }

    @Test func storedUserinfoIsDropped() throws {
        let stored = try ServiceIdentifier(stored: "https://alice:s3cr3t-pw@github.com:8443/login")
        #expect(stored.text == "https://github.com:8443/login")
        #expect(stored.host == "github.com" && stored.port == 8443 && stored.path == "/login")
        #expect(try ServiceIdentifier(stored: "github.com").text == "github.com")
    }

    @Test func atSignOutsideAURLIsRefused() {
        #expect(throws: InvalidServiceIdentifier.self) { try ServiceIdentifier("alice@github.com") }
    }
}
