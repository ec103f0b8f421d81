// An identity as the agent's answers carry it: every item kind survives the trip (before, the
// coding left the kind out and every note, card, identity and SSH key came back a login, which
// made `ssh export` through the agent refuse every key), and an older agent's answer without a
// kind, or with one this version does not know, reads as a login.

import Foundation
import Testing
import VaultModel

@Suite("identity coding on the agent's socket")
struct IdentityCodingTests {
    static func identity(_ kind: ItemKind) -> IdentityStore.Identity {
        IdentityStore.Identity(id: UUID(), title: "t", username: "u", services: [], rank: 0, kind: kind)
    }

    @Test("every kind comes back as it went", arguments: [ItemKind.login, .note, .card, .identity, .sshKey])
    func roundTrip(kind: ItemKind) throws {
        let coded = try JSONEncoder().encode(Self.identity(kind))
        #expect(try JSONDecoder().decode(IdentityStore.Identity.self, from: coded).kind == kind)
    }

    @Test("no kind (an older agent) or an unknown one reads as a login")
    func olderOrNewer() throws {
        let id = UUID().uuidString
        for kind in ["", ",\"kind\":250"] {
            let json = "{\"id\":\"\(id)\",\"title\":\"t\",\"username\":\"u\",\"services\":[],\"rank\":0\(kind)}"
            #expect(try JSONDecoder().decode(IdentityStore.Identity.self, from: Data(json.utf8)).kind == .login)
        }
    }
}
