// The Secret Service's store over the agent (`AgentItemStore`), in one process: what it asks the
// agent for. A read's item properties come from the listing just made, for a moment; a change
// made through it, or a lock, forgets that listing.

import Foundation
import Platform
import PwtuiTestSupport
@testable import Commands
import SecretService
@testable import SecretServiceAgent
import Testing
import VaultAgent
import VaultCrypto
import VaultModel

@Suite("Secret Service store over the agent, in process")
struct AgentItemStoreInProcessTests {
    @Test(
        "a search's descriptions answer the properties asked next, for a moment; a change or a lock makes it ask again"
    )
    func listingRemembered() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        let requests = AgentKeptConnectionInProcessTests.Counter()
        let server = fixture.server
        fixture.context.agentClient = AgentClient {
            requests.add()
            return server.connectInProcess()
        }
        nonisolated(unsafe) let context = fixture.context
        let store = AgentItemStore(context: context, makeContext: { context })
        let (id, _) = try store.create(
            label: "Token", attributes: ["app": "test"], secret: try SecureBytes(copying: Array("t0ken".utf8)),
            contentType: "text/plain", replace: false, creator: SecretCaller(uniqueName: ":1.1", pid: nil))
        #expect(requests.value == 1)
        #expect(try store.describe(id).label == "Token", "the new item as the agent answered its creation")
        #expect(requests.value == 1)

        #expect(try store.search(["app": "test"]).unlocked == [id])
        #expect(try store.describe(id).label == "Token")
        #expect(try store.describe(id).locked == false)
        #expect(requests.value == 2, "the search alone asked")

        Thread.sleep(forTimeInterval: (AgentItemStore.listingLifetime + .milliseconds(50)).seconds)
        #expect(try store.describe(id).label == "Token")
        #expect(requests.value == 3, "after its moment, asked again")

        try store.update(id, label: "Renamed", attributes: nil)
        #expect(try store.describe(id).label == "Renamed", "a change forgets what was listed")
        #expect(requests.value == 5)

        _ = try store.search([:])
        try store.lock()
        #expect(try store.describe(id).locked, "locked now, not as listed a moment ago")
    }
}

extension Duration {
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
