import Testing
@testable import ServiceMatching

/// Inputs the ServiceIdentifier fuzzer found crashing (each is in Fuzz/Corpus/ServiceIdentifier
/// too): refused with a message, never a trap.
@Suite struct ServiceIdentifierFuzzFindingsTests {
    @Test(arguments: ["http://*.[", "*.[", "webcredentials:*.[", "*.[::1", "*.[a", "https://*.[:443/"])
    func anOpenBracketAfterAWildcardIsRefused(_ text: String) {
        #expect(throws: InvalidServiceIdentifier.self) { try ServiceIdentifier(text) }
    }
}
