import Foundation
import Testing
@testable import VaultModel

@Suite("Id text without making it")
struct IdentifierTextTests {
    @Test("Comparing ids' bytes orders them as their text does (20,000 random pairs and their edge cases)")
    func bytesOrderAsText() {
        var generator = SystemRandomNumberGenerator()
        func randomID() -> UUID {
            var bytes = [UInt8](repeating: 0, count: 16)
            for i in bytes.indices { bytes[i] = UInt8.random(in: 0 ... 255, using: &generator) }
            // Some pairs share a long prefix, so later bytes decide too.
            return UUID(
                uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                    bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                ))
        }
        var pairs: [(UUID, UUID)] = [
            (
                UUID(uuidString: "00000000-0000-0000-0000-00000000000A")!,
                UUID(uuidString: "00000000-0000-0000-0000-000000000009")!
            ),
            (
                UUID(uuidString: "F0000000-0000-0000-0000-000000000000")!,
                UUID(uuidString: "0F000000-0000-0000-0000-000000000000")!
            ),
        ]
        for _ in 0 ..< 20_000 { pairs.append((randomID(), randomID())) }
        for _ in 0 ..< 1_000 {
            let a = randomID()
            var text = Array(a.uuidString)
            let position = [34, 35, 30, 20].randomElement()!
            text[position] = text[position] == "F" ? "0" : "F"
            pairs.append((a, UUID(uuidString: String(text))!))
        }
        for (a, b) in pairs {
            #expect(a.precedes(b) == (a.uuidString < b.uuidString))
            #expect(b.precedes(a) == (b.uuidString < a.uuidString))
        }
        #expect(!pairs[0].0.precedes(pairs[0].0))
    }

    @Test("An id starts with a prefix exactly when its lower-case text does (prefixes of every length, changed or not)")
    func prefixAsText() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0 ..< 2_000 {
            let id = UUID()
            let text = Array(id.uuidString.lowercased())
            let length = Int.random(in: 0 ... 38, using: &generator)
            var prefix = Array(text.prefix(length))
            if length == 37 || length == 38 { prefix += ["0"] }
            if !prefix.isEmpty, Bool.random(using: &generator) {
                let position = Int.random(in: 0 ..< prefix.count, using: &generator)
                prefix[position] = ["0", "f", "-", "g", "A", "é"].randomElement(using: &generator)!
            }
            let wanted = String(prefix)
            let matches = IDPrefix(wanted)?.matches(id) ?? false
            #expect(matches == id.uuidString.lowercased().hasPrefix(wanted), "\(id) \(wanted)")
        }
    }
}
