// The only door from Swift to ncurses (the terminal's descriptor, size and signals are
// Platform's). SwiftPM drops pkg-config's cflags, so wide-character support is switched on
// here; macros and mutable globals that Swift cannot import are wrapped.
#ifndef PWTUI_CNCURSES_SHIM_H
#define PWTUI_CNCURSES_SHIM_H

#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <stdio.h>
#include <wchar.h>
#include <ncurses.h>
#include <string.h>

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

#endif
