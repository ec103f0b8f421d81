// The picker as the commands build it (`Picker.flow`), on an in-memory terminal, against an agent
// in the same process: the list comes from the identity store before anything is unlocked, and
// a choice is answered by the agent without the master password.

import Foundation
import Platform
@testable import Commands
import ServiceMatching
import TUITestDoubles
import Testing
import TUI
import VaultAgent
import VaultCrypto
import VaultModel

@Suite("Picker, in process")
struct PickerInProcessTests {
    @Test("listed from the identity store, chosen, and answered by the unlocked agent: no password screen")
    func answeredByTheAgent() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()  // also writes the identity store the list comes from
        let terminal = GridTerminal(script: [.key(.enter)])
        let flow = Picker.flow(
            on: terminal, vaultPath: fixture.context.vaultPath, requests: [try ServiceIdentifier("github.com")],
            context: fixture.context, agentField: .both)
        guard case .answeredWithoutUnlocking(let answer) = try flow.run() else {
            Issue.record("not answered by the agent")
            return
        }
        #expect(answer.identity.username == "octocat")
        guard let payload = answer.payload.take() else {
            Issue.record("no payload")
            return
        }
        #expect(AgentInProcessTests.text(payload) == "octocat\ngh-secret\n")
        #expect(
            terminal.frames.allSatisfy { !$0.text.contains("Master password") }, "the password screen was never shown")
    }

    @Test("with the agent locked, the same choice asks for the master password and opens the vault here")
    func lockedAgentMeansAPassword() throws {
        let fixture = try AgentInProcessTests.Fixture()
        _ = try fixture.unlock()
        #expect(try AgentControl.send(.lock, in: fixture.context))
        let terminal = GridTerminal(script: [.key(.enter)])
        terminal.enqueue(typing: "master")
        terminal.enqueue(.key(.enter))
        let flow = Picker.flow(
            on: terminal, vaultPath: fixture.context.vaultPath, requests: [try ServiceIdentifier("github.com")],
            context: fixture.context, agentField: .password)
        guard case .chosen(_, let credential) = try flow.run() else {
            Issue.record("not chosen after unlocking")
            return
        }
        #expect(credential.username == "octocat")
        #expect(terminal.frames.contains { $0.text.contains("Master password") })
    }
}
