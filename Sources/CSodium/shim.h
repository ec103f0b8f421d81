// The only door from Swift to libsodium.
#ifndef PWTUI_CSODIUM_SHIM_H
#define PWTUI_CSODIUM_SHIM_H

#include <sodium.h>

#endif
