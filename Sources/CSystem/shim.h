// The only door from Swift to the system calls Swift cannot make directly: variadic ones (prctl,
// ioctl), structs the Glibc module hides (struct ucred needs _GNU_SOURCE, which it does not set),
// sockaddr_un, and a signal handler, which must be C. Platform is the only Swift that imports it.
#ifndef PWTUI_CSYSTEM_SHIM_H
#define PWTUI_CSYSTEM_SHIM_H

#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

// Makes this process unable to leave its memory anywhere: no core file, not dumpable (so no
// ptrace by same-uid processes and /proc/PID/mem is closed), and the fatal signals back to their
// default action, which removes the Swift runtime's crash backtracer: it prints registers and the
// memory they point at on stderr, and that memory may hold a key.
// `keep_dumpable`: everything but the not-dumpable step (see ProcessHardening).
// Returns 0 on success, or -1 when one of the steps failed (errno tells which).
static inline int pwtui_harden_process(int keep_dumpable) {
    int result = 0;
    struct rlimit none = { 0, 0 };
    if (setrlimit(RLIMIT_CORE, &none) != 0) result = -1;
#if defined(__linux__)
    if (!keep_dumpable && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) result = -1;
#endif
    const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS, SIGQUIT };
    for (unsigned i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
        if (signal(fatal[i], SIG_DFL) == SIG_ERR) result = -1;
    }
    return result;
}

// Whether the process is currently dumpable (1) or not (0); -1 where unknown.
static inline int pwtui_is_dumpable(void) {
#if defined(__linux__)
    return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
#else
    return -1;
#endif
}

// The uid of the process at the other end of a Unix socket (SO_PEERCRED), or -1.
static inline long pwtui_peer_uid(int fd) {
#if defined(__linux__)
    struct { pid_t pid; uid_t uid; gid_t gid; } credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    return (long)credentials.uid;
#else
    (void)fd;
    return -1;
#endif
}

// The pid of the process at the other end of a Unix socket (SO_PEERCRED), or -1: the process
// that connected, as the kernel recorded it then (the agent names the asking program from it).
static inline long pwtui_peer_pid(int fd) {
#if defined(__linux__)
    struct { pid_t pid; uid_t uid; gid_t gid; } credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    return (long)credentials.pid;
#else
    (void)fd;
    return -1;
#endif
}

// Fixes glibc's mmap threshold (it otherwise grows after each large free); 1 on success.
static inline int pwtui_fix_mmap_threshold(int bytes) {
#if defined(__GLIBC__)
    return mallopt(M_MMAP_THRESHOLD, bytes);
#else
    (void)bytes;
    return 1;
#endif
}

// Binds (and listens) or connects a Unix stream socket at `path`; -1 with errno on failure.
static inline int pwtui_unix_socket(const char *path, int listening) {
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof address.sun_path) { errno = ENAMETOOLONG; return -1; }
    strcpy(address.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int status = listening ? bind(fd, (struct sockaddr *)&address, sizeof address)
                           : connect(fd, (struct sockaddr *)&address, sizeof address);
    if (status == 0 && listening) status = listen(fd, 16);
    if (status != 0) { int saved = errno; close(fd); errno = saved; return -1; }
    return fd;
}

// accept4 is declared only under _GNU_SOURCE, which the Glibc module is built without.
#if defined(__linux__)
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
#endif

// A connection from a listening socket, close-on-exec from the start (no window in which a
// fork and exec elsewhere in the process could inherit it); -1 with errno.
static inline int pwtui_accept(int listener) {
#if defined(__linux__)
    return accept4(listener, NULL, NULL, SOCK_CLOEXEC);
#else
    return accept(listener, NULL, NULL);
#endif
}

// SIGTERM, SIGHUP and SIGINT as a flag a loop polls (unblocked: masks are inherited), SIGPIPE
// ignored. One flag per process: only Platform's SignalFlag includes this header's code.
static volatile sig_atomic_t pwtui_signal_flag = 0;
static void pwtui_on_signal(int number) { pwtui_signal_flag = number; }
static inline void pwtui_watch_termination_signals(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = pwtui_on_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    signal(SIGPIPE, SIG_IGN);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGINT);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
}
static inline int pwtui_received_signal(void) { return pwtui_signal_flag; }
static inline void pwtui_clear_received_signal(void) { pwtui_signal_flag = 0; }

// `pwtui run`: the signals a parent passes on to the child it runs. One another process sent
// (kill: si_code SI_USER, SI_QUEUE, SI_TKILL) is marked to be forwarded. One the kernel sent
// (SI_KERNEL: Ctrl-C, Ctrl-\, a hangup or a resize from the terminal) went to the whole
// foreground process group, the child included, so sending it again would deliver it twice.
#define PWTUI_FORWARDED_LIMIT 65
static inline volatile sig_atomic_t *pwtui_forward_pending(void) {
    static volatile sig_atomic_t pending[PWTUI_FORWARDED_LIMIT];
    return pending;
}
static void pwtui_on_forwarded_signal(int number, siginfo_t *info, void *context) {
    (void)context;
    if (info != NULL && info->si_code == SI_KERNEL) return;
    if (number > 0 && number < PWTUI_FORWARDED_LIMIT) pwtui_forward_pending()[number] = 1;
}
static inline int pwtui_watch_forwarded_signal(int number) {
    if (number <= 0 || number >= PWTUI_FORWARDED_LIMIT) { errno = EINVAL; return -1; }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = pwtui_on_forwarded_signal;
    action.sa_flags = SA_SIGINFO;  // no SA_RESTART: a wait in poll wakes up to forward it
    sigemptyset(&action.sa_mask);
    if (sigaction(number, &action, NULL) != 0) return -1;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, number);
    return sigprocmask(SIG_UNBLOCK, &set, NULL);
}
// The lowest signal waiting to be forwarded, cleared; 0 when none.
static inline int pwtui_take_forwarded_signal(void) {
    for (int number = 1; number < PWTUI_FORWARDED_LIMIT; number++) {
        if (pwtui_forward_pending()[number]) {
            pwtui_forward_pending()[number] = 0;
            return number;
        }
    }
    return 0;
}
// Dies of `number` as the child did: its default action, unblocked, raised here.
static inline void pwtui_die_of_signal(int number) {
    signal(number, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, number);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(number);
}

// ncurses catches SIGWINCH only when it is neither ignored nor blocked; a parent that ignores or
// blocks it (the mask survives fork and exec: test runners and service managers pass it on)
// would leave the picker deaf to resizes.
static inline void pwtui_default_sigwinch(void) {
    signal(SIGWINCH, SIG_DFL);
    sigset_t winch;
    sigemptyset(&winch);
    sigaddset(&winch, SIGWINCH);
    sigprocmask(SIG_UNBLOCK, &winch, NULL);
}

// The terminal's size as the kernel knows it (ioctl is variadic: Swift cannot call it).
static inline int pwtui_tty_size(int fd, int *rows, int *columns) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 0;
}

// Whether this process was started with SIGTSTP ignored: a shell without job control, where
// nothing could resume a stopped job.
static inline int pwtui_stop_signal_ignored(void) {
    struct sigaction current;
    if (sigaction(SIGTSTP, NULL, &current) != 0) return 0;
    return current.sa_handler == SIG_IGN;
}

// Stops this process's job as the terminal's Ctrl-Z would (SIGTSTP to the whole process group:
// `pwtui pick | cat` stops together), and returns once a SIGCONT (`fg`, `bg`) resumes it.
// SIGTSTP's default action is put in place for the moment (ncurses' own handler, installed by
// newterm, would redo the terminal work the caller already did) and unblocked (a parent's mask
// is inherited). A SIGTSTP ignored from the start is how a shell without job control starts
// its commands (nothing could resume the job): then nothing is stopped.
// Returns 0 once resumed, 1 when not stopped (no job control), -1 with errno on failure.
static inline int pwtui_stop_job(void) {
    struct sigaction stop, previous;
    memset(&stop, 0, sizeof stop);
    stop.sa_handler = SIG_DFL;
    sigemptyset(&stop.sa_mask);
    if (sigaction(SIGTSTP, &stop, &previous) != 0) return -1;
    if (previous.sa_handler == SIG_IGN) {
        sigaction(SIGTSTP, &previous, NULL);
        return 1;
    }
    sigset_t tstp, mask;
    sigemptyset(&tstp);
    sigaddset(&tstp, SIGTSTP);
    sigprocmask(SIG_UNBLOCK, &tstp, &mask);
    // A signal sent to one's own group is delivered before kill returns when this thread has
    // it unblocked: the stop happens here, and execution goes on after the SIGCONT.
    int result = kill(0, SIGTSTP);
    int saved = errno;
    sigprocmask(SIG_SETMASK, &mask, NULL);
    sigaction(SIGTSTP, &previous, NULL);
    errno = saved;
    return result;
}

extern char **environ;

// Starts `file` (looked up in PATH like a shell) with `argv` (NULL-terminated) and this process's
// environment. Its standard input, output and error are the descriptors given (each dup2'ed, so
// close-on-exec pipe ends work, and an fd already in place is made inheritable), and it inherits
// no other descriptor. Every signal starts at its default action and unblocked, whatever this
// process ignores or blocks. `detached`: in a session of its own, with no controlling terminal
// (an agent, a clipboard clear that must outlive a closed terminal).
// Returns 0 with the child's pid in *pid, or an errno.
#ifndef POSIX_SPAWN_SETSID
#define POSIX_SPAWN_SETSID 0x80  // glibc's value since 2.26; spawn.h shows it under _GNU_SOURCE only
#endif
static inline int pwtui_spawn(const char *file, char *const argv[], char *const envp[], int input, int output, int error,
                              int detached, pid_t *pid) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int result = posix_spawn_file_actions_init(&actions);
    if (result != 0) return result;
    result = posix_spawnattr_init(&attributes);
    if (result != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return result;
    }
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    if (result == 0) result = posix_spawnattr_setsigdefault(&attributes, &all);
    if (result == 0) result = posix_spawnattr_setsigmask(&attributes, &none);
    if (result == 0) result = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
                                                                      | (detached ? POSIX_SPAWN_SETSID : 0));
    if (result == 0) result = posix_spawn_file_actions_adddup2(&actions, input, 0);
    if (result == 0) result = posix_spawn_file_actions_adddup2(&actions, output, 1);
    if (result == 0) result = posix_spawn_file_actions_adddup2(&actions, error, 2);
    if (result == 0) result = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    if (result == 0) result = posix_spawnp(pid, file, &actions, &attributes, argv, envp != NULL ? envp : environ);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return result;
}

#endif
