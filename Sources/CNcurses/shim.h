// The only door from Swift to ncurses. SwiftPM drops pkg-config's cflags, so wide-character
// support is switched on here; macros and mutable globals that Swift cannot import are wrapped.
#ifndef PWTUI_CNCURSES_SHIM_H
#define PWTUI_CNCURSES_SHIM_H

#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <stdio.h>
#include <wchar.h>
#include <ncurses.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <poll.h>
#include <string.h>

// The terminal's size as the kernel knows it (ioctl is variadic: Swift cannot call it).
static inline int pwtui_tty_size(FILE *tty, int *rows, int *columns) {
    struct winsize size;
    if (ioctl(fileno(tty), TIOCGWINSZ, &size) != 0) return -1;
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 0;
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

static inline int pwtui_attr_bold(void) { return A_BOLD; }
static inline int pwtui_attr_reverse(void) { return A_REVERSE; }
static inline int pwtui_attr_underline(void) { return A_UNDERLINE; }
static inline int pwtui_attr_dim(void) { return A_DIM; }
static inline int pwtui_color_pair(int n) { return COLOR_PAIR(n); }
static inline int pwtui_rows(WINDOW *w) { return getmaxy(w); }
static inline int pwtui_columns(WINDOW *w) { return getmaxx(w); }
static inline int pwtui_key_resize(void) { return KEY_RESIZE; }
static inline int pwtui_colors(void) { return COLORS; }
static inline void pwtui_set_utf8_locale(void) { setlocale(LC_ALL, ""); }
static inline WINDOW *pwtui_stdscr(void) { return stdscr; }

// Puts one character cell (a base character and up to 4 combining ones) with attributes.
static inline int pwtui_put_cell(WINDOW *w, int y, int x, const wchar_t *text, int attrs, int pair) {
    cchar_t cell;
    if (setcchar(&cell, text, (attr_t)attrs, (short)pair, NULL) != OK) return ERR;
    return mvwadd_wch(w, y, x, &cell);
}
// Whether the terminal has gone away (hang-up or error on its descriptor): reads then fail at
// once, and a blocked SIGHUP would never say so.
static inline int pwtui_tty_gone(FILE *tty) {
    struct pollfd descriptor = { fileno(tty), POLLIN, 0 };
    if (poll(&descriptor, 1, 0) < 0) return 0;
    return (descriptor.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0;
}

#endif
