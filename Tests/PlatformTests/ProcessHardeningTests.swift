import Platform
import Testing

// Moved from VaultCryptoTests with ProcessHardening itself.
@Suite struct ProcessHardeningUnitTests {
    @Test func processBecomesNonDumpable() {
        #expect(ProcessHardening.apply())
        #expect(ProcessHardening.isDumpable == false)
    }

    @Test func mmapThresholdIsAccepted() {
        #expect(MemoryTuning.fixMmapThreshold(bytes: 128 * 1024))
    }
}
