// The only door from Swift to libpsl (the Public Suffix List).
#ifndef PWTUI_CPSL_SHIM_H
#define PWTUI_CPSL_SHIM_H

#include <libpsl.h>

// PSL_TYPE_ANY is a macro of macros; Swift imports the value through this function.
static inline int pwtui_psl_type_any(void) { return PSL_TYPE_ANY; }

#endif
