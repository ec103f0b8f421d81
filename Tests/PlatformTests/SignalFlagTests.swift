import Platform
import Testing

@Suite(.serialized) struct SignalFlagTests {
    @Test func aWatchedSignalSetsTheFlagInsteadOfEndingTheProcess() {
        SignalFlag.watchTermination()
        SignalFlag.clear()
        #expect(SignalFlag.received == nil)
        Signal.hangUp.raise()
        #expect(SignalFlag.received == .hangUp)
        Signal.terminate.raise()
        #expect(SignalFlag.received == .terminate)
        SignalFlag.clear()
        #expect(SignalFlag.received == nil)
    }
}
