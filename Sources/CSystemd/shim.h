#ifndef PENCILD_CSYSTEMD_SHIM_H
#define PENCILD_CSYSTEMD_SHIM_H
/* sd-login answers "does this user have an active session on a local seat". */
#include <systemd/sd-login.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-bus.h>
#include <stdint.h>
#include <stdio.h>

/* RealtimeKit's MakeThreadRealtime(thread, priority) on the system bus, waiting at most
   timeout_usec for the answer (sd-bus appends by a variadic call, which Swift cannot make).
   0 when granted, else a negative errno, with the bus's error, when it gave one, in `why`. */
static inline int pencild_realtimekit_make_thread_realtime(uint64_t thread, uint32_t priority,
                                                           uint64_t timeout_usec, char *why, size_t why_size) {
    sd_bus *bus = NULL;
    sd_bus_message *call = NULL, *reply = NULL;
    sd_bus_error error = SD_BUS_ERROR_NULL;
    int r = sd_bus_open_system(&bus);
    if (r >= 0)
        r = sd_bus_message_new_method_call(bus, &call, "org.freedesktop.RealtimeKit1", "/org/freedesktop/RealtimeKit1",
                                           "org.freedesktop.RealtimeKit1", "MakeThreadRealtime");
    if (r >= 0) r = sd_bus_message_append(call, "tu", thread, priority);
    if (r >= 0) r = sd_bus_call(bus, call, timeout_usec, &error, &reply);
    if (why_size > 0) {
        why[0] = 0;
        if (r < 0 && sd_bus_error_is_set(&error))
            snprintf(why, why_size, "%s: %s", error.name, error.message ? error.message : "");
    }
    sd_bus_error_free(&error);
    sd_bus_message_unref(reply);
    sd_bus_message_unref(call);
    sd_bus_flush_close_unref(bus);
    return r < 0 ? r : 0;
}
#endif
