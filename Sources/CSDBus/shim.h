// The only door from Swift to sd-bus (libsystemd): the session bus for the Secret Service.
//
// Nothing here keeps a pointer: the bus, its slots and its messages are owned by the Swift
// funnels in Sources/SecretService (DBusConnection, DBusMessage), each reference taken and
// dropped there explicitly. sd-bus's variadic helpers (sd_bus_message_read, _append,
// sd_bus_reply_method_return) cannot be called from Swift; the funnels use the one-value calls
// (read_basic, append_basic, read_array, append_array, containers) instead.
#ifndef PWTUI_CSDBUS_SHIM_H
#define PWTUI_CSDBUS_SHIM_H

#include <systemd/sd-bus.h>

#endif
