// The only door from Swift to libsodium and to the few process controls that Swift cannot call
// directly (prctl is variadic; sys/prctl.h is not in the Glibc module).
#ifndef PWTUI_CSODIUM_SHIM_H
#define PWTUI_CSODIUM_SHIM_H

#include <sodium.h>
#include <signal.h>
#include <sys/resource.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

// Makes this process unable to leave its memory anywhere: no core file, not dumpable (so no
// ptrace by same-uid processes and /proc/PID/mem is closed), and the fatal signals back to their
// default action, which removes the Swift runtime's crash backtracer: it prints registers and the
// memory they point at on stderr, and that memory may hold a key.
// Returns 0 on success, or -1 when one of the steps failed (errno tells which).
static inline int pwtui_harden_process(void) {
    int result = 0;
    struct rlimit none = { 0, 0 };
    if (setrlimit(RLIMIT_CORE, &none) != 0) result = -1;
#if defined(__linux__)
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) result = -1;
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

#endif
