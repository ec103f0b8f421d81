// The only door from Swift to zlib: raw deflate (a zip member's data) and CRC-32, for 1Password's
// .1pux archive. Used by Interchange's Inflate only.
#ifndef PWTUI_CZLIB_SHIM_H
#define PWTUI_CZLIB_SHIM_H

#include <zlib.h>

// inflateInit2 is a macro: Swift sees only the function behind it.
static inline int pwtui_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}

#endif
