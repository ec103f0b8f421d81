#if canImport(Glibc)
    import Glibc
#endif
import Platform
import Testing

/// Stopping the job is tried under tmux on the real binary (PickerSuspendTmuxTests); here, the
/// case without job control, which must neither stop the test process nor change its signals.
@Suite(.serialized) struct JobControlTests {
    @Test func withTheStopSignalIgnoredNothingStopsAndTheDispositionStays() throws {
        let previous = signal(SIGTSTP, SIG_IGN)
        defer { signal(SIGTSTP, previous) }
        #expect(!JobControl.isAvailable)
        #expect(try JobControl.stop() == false, "returned at once, not stopped")
        let after = signal(SIGTSTP, SIG_IGN)
        #expect(unsafeBitCast(after, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self), "still ignored")
    }

    @Test func aStopSignalNotIgnoredMeansJobControl() {
        let previous = signal(SIGTSTP, SIG_DFL)
        defer { signal(SIGTSTP, previous) }
        #expect(JobControl.isAvailable)
    }
}
