internal import CSystem

/// Job control from inside a full-screen program: in raw mode the terminal sends Ctrl-Z as a key
/// instead of stopping the job, so the program restores the terminal itself and then stops.
public enum JobControl {
    /// Stops this job as Ctrl-Z would in a cooked terminal (SIGTSTP to the process group) and
    /// returns when it is resumed (`fg`). Restore the terminal first: the shell draws on it next.
    /// Throws when the signal could not be sent (the job then simply goes on).
    public static func stop() throws(SystemError) {
        guard pwtui_stop_job() == 0 else { throw SystemError.current }
    }
}
