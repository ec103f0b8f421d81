// The only door from Swift to libpsl (the Public Suffix List).
//
// libpsl's psl_registrable_domain() returns a pointer *into its argument*. Called from Swift with
// a String, that argument is a temporary C string that dies when the call returns, so the
// pointer dangles: it crashed some builds (SIGILL) and silently returned garbage in others. The
// function is therefore declared only inside the funnel below, which answers with an offset into
// the caller's own bytes: no pointer ever crosses back into Swift.
#ifndef PWTUI_CPSL_SHIM_H
#define PWTUI_CPSL_SHIM_H

#include <stddef.h>

// The subset of libpsl.h that is safe to call from Swift (none returns a pointer into an
// argument). Declared here rather than by including libpsl.h, so the unsafe calls are not
// importable at all.
typedef struct psl_ctx_st psl_ctx_t;
psl_ctx_t *psl_load_file(const char *fname);
psl_ctx_t *psl_latest(const char *fname);
const psl_ctx_t *psl_builtin(void);
void psl_free(psl_ctx_t *psl);
int psl_is_public_suffix2(const psl_ctx_t *psl, const char *domain, int type);

// PSL_TYPE_ANY from libpsl.h: ICANN (1) and private (2) rules alike, '*' rules applied.
static inline int pwtui_psl_type_any(void) { return 1 | 2; }

// Where the registrable domain of `host` (a NUL-terminated lowercase ASCII/punycode name) begins,
// as a byte offset into `host`; -1 when `host` has none (it is a public suffix, or not a name).
static inline long pwtui_psl_registrable_offset(const psl_ctx_t *psl, const char *host) {
    const char *psl_registrable_domain(const psl_ctx_t *psl, const char *domain);
    const char *start = psl_registrable_domain(psl, host);
    if (start == NULL) return -1;
    return (long)(start - host);
}

#endif
