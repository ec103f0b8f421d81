internal import CSystem

/// Job control from inside a full-screen program: in raw mode the terminal sends Ctrl-Z as a key
/// instead of stopping the job, so the program restores the terminal itself and then stops.
public enum JobControl {
    /// Whether `stop()` can stop this job: false when it was started with SIGTSTP ignored.
    public static var isAvailable: Bool { pwtui_stop_signal_ignored() == 0 }

    /// Stops this job as Ctrl-Z would in a cooked terminal (SIGTSTP to the process group) and
    /// returns true when it is resumed (`fg`); false, at once, when the job was started with
    /// SIGTSTP ignored (a shell without job control: nothing could resume it). Restore the
    /// terminal first: the shell draws on it next.
    @discardableResult
    public static func stop() throws(SystemError) -> Bool {
        switch pwtui_stop_job() {
        case 0: return true
        case 1: return false
        default: throw SystemError.current
        }
    }
}
