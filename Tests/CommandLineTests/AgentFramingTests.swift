// Messages on the agent's socket now arrive in blocks, not a byte per read: a block that runs from
// the header into the payload, and a payload longer than a block, must come through whole.

import Foundation
import Testing

@Suite("Agent framing")
struct AgentFramingTests {
    @Test("a 60,000-byte secret goes through the agent and comes back byte for byte")
    func longPayloadBothWays() throws {
        let sandbox = try Sandbox.withVault()
        let start = try sandbox.pwtui(["agent", "start"], password: .none, timeout: .seconds(15))
        try #require(start.exitCode == 0, "\(start)")
        defer { _ = try? sandbox.pwtui(["agent", "stop"], password: .none) }
        try #require(try sandbox.pwtui(["unlock"]).exitCode == 0)
        let secret = (0 ..< 60_000).map { index in String(UnicodeScalar(UInt8(33 + index % 90))) }.joined()
        let add = try sandbox.pwtui(["add", "long.example", "--username", "u"], password: .none, stdin: secret)
        #expect(add.exitCode == 0, "\(add)")
        let get = try sandbox.pwtui(["get", "long.example", "--no-interaction"], password: .none)
        #expect(get.exitCode == 0 && get.out == secret + "\n", "\(get.exitCode) \(get.err) \(get.out.count) bytes")
        let locally = try sandbox.pwtui(["agent", "stop"], password: .none)
        #expect(locally.exitCode == 0)
        #expect(try sandbox.pwtui(["get", "long.example"]).out == secret + "\n", "saved as sent")
    }
}
