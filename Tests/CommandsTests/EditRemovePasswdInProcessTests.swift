// Changing what is in a vault, in process: `EditCredential` (a new password from stdin, services
// added and removed), `RemoveCredential`, `ChangeMasterPassword` (no file in the vault's directory
// opens with the old password afterwards).

import Foundation
@testable import Commands
import Testing
import VaultCrypto
import VaultModel

@Suite("edit, rm and passwd, in process")
struct EditRemovePasswdInProcessTests {
    static func fixture() throws -> (CommandFixture, String) {
        let fixture = try CommandFixture([("github.com", "alice", "s3cret", "")])
        return (fixture, try #require(try fixture.vault().contents.credentials.first?.id.uuidString.lowercased()))
    }

    static func get(
        _ words: [String], id: String? = nil, in fixture: CommandFixture,
        password: String = CommandFixture.password
    ) throws -> (failure: CommandFailure?, streams: RecordedStreams) {
        try fixture.failure(typing: [.secret(password), .secret(password), .secret(password)]) {
            try GetCredential.words(words, id: id).run(in: $0)
        }
    }

    @discardableResult
    static func edit(_ id: String, _ edits: CredentialChange.Edits, input: String = "", in fixture: CommandFixture)
        throws -> RecordedStreams
    {
        try fixture.run(input: input, typing: CommandFixture.unlock) {
            try EditCredential(id: id, edits: edits, generate: false).run(in: $0)
        }
    }

    @Test(
        "edit ID --password reads the new secret from stdin and never prints either; get returns it; still one credential, same id"
    )
    func editPassword() throws {
        let (fixture, id) = try Self.fixture()
        let edit = try Self.edit(id, CredentialChange.Edits(replacesSecret: true), input: "n3w-s3cret", in: fixture)
        #expect(
            !edit.output.contains("s3cret") && !edit.errorText.contains("s3cret"), "\(edit.output) \(edit.messages)")
        #expect(try Self.get(["github.com"], in: fixture).streams.output == "n3w-s3cret\n")
        let credentials = try fixture.vault().contents.credentials
        #expect(
            credentials.count == 1 && credentials.first?.id.uuidString.lowercased() == id,
            "a new secret replaces, it does not add")
    }

    @Test("edit --add-service / --remove-service change what get answers for")
    func editServices() throws {
        let (fixture, id) = try Self.fixture()
        #expect(try Self.get(["gitlab.com"], in: fixture).failure?.code == .noMatch)
        try Self.edit(String(id.prefix(8)), CredentialChange.Edits(addServices: ["gitlab.com"]), in: fixture)
        #expect(try Self.get(["gitlab.com"], in: fixture).streams.output == "s3cret\n")
        #expect(
            try fixture.vault().contents.credentials.first?.services.map(\.description) == ["github.com", "gitlab.com"])
        try Self.edit(id, CredentialChange.Edits(removeServices: ["github.com"]), in: fixture)
        #expect(try Self.get(["github.com"], in: fixture).failure?.code == .noMatch)
        #expect(try Self.get(["gitlab.com"], in: fixture).streams.output == "s3cret\n")
    }

    @Test("rm ID --yes deletes: get by service and by id then fail with 1, and only the other credential is left")
    func removeWithYes() throws {
        let fixture = try CommandFixture([("github.com", "alice", "s3cret", ""), ("gitlab.com", "bob", "other", "")])
        let ids = Dictionary(
            uniqueKeysWithValues: try fixture.vault().contents.credentials.map {
                ($0.username, $0.id.uuidString.lowercased())
            })
        let id = try #require(ids["alice"])
        try fixture.run(typing: CommandFixture.unlock) { try RemoveCredential(id: id, confirmed: true).run(in: $0) }
        let get = try Self.get(["github.com"], in: fixture)
        #expect(get.failure?.code == .noMatch && get.streams.output.isEmpty)
        #expect(try Self.get([], id: id, in: fixture).failure?.code == .noMatch)
        #expect(try fixture.vault().contents.credentials.map { $0.id.uuidString.lowercased() } == [ids["bob"]])
    }

    @Test(
        "passwd: the new password opens the vault, the old one opens no file in its directory (.bak, a dead saver's temporary)"
    )
    func changeMasterPassword() throws {
        let (fixture, _) = try Self.fixture()
        // A second save makes a .bak, and a copy named like a save's temporary file plays a saver
        // killed before its rename: both open with the old password until passwd.
        try fixture.run(input: "other", typing: CommandFixture.unlock) {
            try AddCredential(services: ["gitlab.com"], username: "bob", title: "", notes: "", rank: 0, generate: false)
                .run(in: $0)
        }
        // The add was a journal record; a new snapshot makes the .bak that passwd must remove.
        try fixture.vault().compact()
        let directory = (fixture.context.vaultPath as NSString).deletingLastPathComponent
        try FileManager.default.copyItem(
            atPath: fixture.context.vaultPath, toPath: directory + "/.vault.pwtui.tmp-0123456789ab")
        func filesOpening(_ password: String) throws -> Set<String> {
            Set(
                try FileManager.default.contentsOfDirectory(atPath: directory).filter { name in
                    (try? Vault.open(at: directory + "/" + name, password: try SecureBytes(copying: password.utf8)))
                        != nil
                })
        }
        #expect(
            try filesOpening(CommandFixture.password).isSuperset(of: [
                "vault.pwtui", "vault.pwtui.bak", ".vault.pwtui.tmp-0123456789ab",
            ]),
            "the check below must be able to fail")

        let newPassword = "a much better passphrase"
        try fixture.run(typing: CommandFixture.unlock + [.secret(newPassword), .secret(newPassword)]) {
            try ChangeMasterPassword(newPasswordFD: nil, parameters: nil).run(in: $0)
        }
        #expect(try Self.get(["github.com"], in: fixture, password: newPassword).streams.output == "s3cret\n")
        #expect(try Self.get(["github.com"], in: fixture).failure?.code == .wrongPassword)
        #expect(try filesOpening(CommandFixture.password).isEmpty, "these files still open with the old password")
        #expect(try filesOpening(newPassword) == ["vault.pwtui"])
    }
}
