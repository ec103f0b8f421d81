import Foundation
import Testing
@testable import ServiceMatching

/// Punycode is quadratic in a label's length: a 40,000-character IDN label took 7 s to refuse.
/// The bound comes before the encoder, which these tests show without timing anything: the
/// refusal names the length (only the check in front of the encoder does), not the encoding.
@Suite struct HostLengthBoundTests {
    @Test func aHugeInternationalLabelIsRefusedBeforeEncoding() throws {
        let label = String(repeating: "ü", count: 40_000)
        #expect(Punycode.toASCII(label + ".example") == .failure(.labelTooLong))
        #expect(Punycode.toASCII(label) == .failure(.labelTooLong))
        #expect(throws: InvalidServiceIdentifier.self) { try ServiceIdentifier(label + ".example") }
        do {
            _ = try ServiceIdentifier("https://" + label + ".example/")
            Issue.record("accepted")
        } catch {
            #expect("\(error)".contains("label longer than 63 characters"), "\(error)")
        }
    }

    @Test func aHugeInternationalNameOfShortLabelsIsRefusedBeforeEncoding() {
        let name = Array(repeating: "bücher", count: 5_000).joined(separator: ".")
        #expect(Punycode.toASCII(name) == .failure(.nameTooLong))
        do {
            _ = try ServiceIdentifier(name)
            Issue.record("accepted")
        } catch {
            #expect("\(error)".contains("longer than a host name may be"), "\(error)")
        }
    }

    /// The bound refuses only what DNS refuses once encoded: 59 code points still reach the
    /// encoder (and the encoded label's own length decides), 60 never do.
    @Test func theBoundSitsWhereTheEncodedLabelOutgrowsDNS() throws {
        let longest = String(repeating: "a", count: 58) + "ü"
        guard case .success(let ascii) = Punycode.toASCII(longest) else {
            Issue.record("refused before encoding"); return
        }
        #expect(ascii.count > 63, "\(ascii)")  // "xn--", the a's, "-", then ü's digits: too long for DNS
        #expect(throws: InvalidServiceIdentifier.self) { try ServiceIdentifier(longest + ".example") }
        #expect(Punycode.toASCII(String(repeating: "a", count: 59) + "ü") == .failure(.labelTooLong))
        let fits = String(repeating: "a", count: 50) + "ü"
        #expect(try ServiceIdentifier(fits + ".example").host.hasPrefix("xn--"))
    }
}
