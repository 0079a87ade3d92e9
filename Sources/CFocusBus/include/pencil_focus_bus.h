#ifndef PENCILD_FOCUS_BUS_H
#define PENCILD_FOCUS_BUS_H
/* pencil-actions' KDE and GNOME focus providers: on the session bus (sd-bus) it owns
 * org.pencild.Actions and takes SetFocusedApp calls at /org/pencild/Actions, from the
 * desktop's own process only (the owner of `desktop_name`: org.kde.KWin, org.gnome.Shell),
 * pushed by the KWin script or the GNOME Shell extension the package ships.
 *
 * Nothing here waits for the bus: who owns the desktop's name, which user that is, and the
 * KWin script's loading are asynchronous calls whose answers come through
 * pencil_focus_bus_process, so that a peer that floods the connection or never answers
 * cannot hold pencil-actions' loop. The owner is learnt from the bus alone (GetNameOwner,
 * then NameOwnerChanged signals whose sender is the bus itself). */
#include <stddef.h>
#include <stdint.h>

#define PENCIL_FOCUS_BUS_NAME "org.pencild.Actions"
#define PENCIL_FOCUS_BUS_PATH "/org/pencild/Actions"
#define PENCIL_FOCUS_BUS_INTERFACE "org.pencild.Actions1"
#define PENCIL_FOCUS_APP_MAX 255
/* The desktop's calls kept unanswered while the bus has not yet said which user its process
 * is; more are refused (LimitsExceeded). */
#define PENCIL_FOCUS_HELD_CALLS_MAX 8

struct pencil_focus_bus;

enum pencil_focus_desktop {
    /* The bus has not yet answered who owns the desktop's name. */
    PENCIL_FOCUS_DESKTOP_ASKING,
    PENCIL_FOCUS_DESKTOP_ABSENT,
    PENCIL_FOCUS_DESKTOP_PRESENT,
};

enum pencil_focus_kwin_outcome {
    PENCIL_FOCUS_KWIN_NOTHING_NEW,
    /* KWin loaded and started the script. */
    PENCIL_FOCUS_KWIN_STARTED,
    PENCIL_FOCUS_KWIN_FAILED,
};

enum pencil_focus_extension_outcome {
    PENCIL_FOCUS_EXTENSION_NOTHING_NEW,
    /* GNOME Shell runs the extension already. */
    PENCIL_FOCUS_EXTENSION_WAS_ON,
    /* It was off, and GNOME Shell turned it on when asked (EnableExtension). */
    PENCIL_FOCUS_EXTENSION_TURNED_ON,
    /* GNOME Shell does not know it: installed after the Shell started, or not at all. */
    PENCIL_FOCUS_EXTENSION_UNKNOWN,
    PENCIL_FOCUS_EXTENSION_FAILED,
};

/* Connects to `address` (NULL: the user's session bus) and takes the name. `kwin_script`:
 * the script to load into each KWin that owns `desktop_name` (NULL: none, GNOME). NULL on
 * failure, with the reason in `error`. */
struct pencil_focus_bus *pencil_focus_bus_open(const char *address, const char *desktop_name, const char *kwin_script,
                                               const char *kwin_plugin_name, char *error, size_t error_size);
int pencil_focus_bus_fd(struct pencil_focus_bus *bus);
/* Handles at most `max_messages` of what the bus sent, and writes what waits to be written;
 * -1 when the connection ended (the reason in `error`). What is left stays for the next
 * call: pencil_focus_bus_deadline says when that is due although the descriptor is quiet. */
int pencil_focus_bus_process(struct pencil_focus_bus *bus, unsigned max_messages, char *error, size_t error_size);
/* 1 while output waits: wait for the descriptor to be writable too. */
int pencil_focus_bus_wants_to_write(struct pencil_focus_bus *bus);
/* When process must run although the descriptor says nothing (CLOCK_MONOTONIC µs; 0: now,
 * for messages already read; a call's timeout), or UINT64_MAX: never. */
uint64_t pencil_focus_bus_deadline(struct pencil_focus_bus *bus);
/* 1 when the desktop has reported the focus since it (last) joined the bus. */
int pencil_focus_bus_known(struct pencil_focus_bus *bus);
/* The focused app's id the desktop reported (NULL: no window, or one without an id). */
const char *pencil_focus_bus_app(struct pencil_focus_bus *bus);
enum pencil_focus_desktop pencil_focus_bus_desktop(struct pencil_focus_bus *bus);
/* Calls refused: from a process that is not the desktop, or of another user. */
unsigned long pencil_focus_bus_refused(struct pencil_focus_bus *bus);
/* NameOwnerChanged signals ignored because the bus did not send them. */
unsigned long pencil_focus_bus_forged_signals(struct pencil_focus_bus *bus);
/* What became of the KWin script since the last call; for FAILED, the reason in `error`. */
enum pencil_focus_kwin_outcome pencil_focus_bus_take_kwin_outcome(struct pencil_focus_bus *bus, char *error, size_t error_size);
/* Asks GNOME Shell (org.gnome.Shell.Extensions), once the bus has said the desktop's process is
 * this user's, whether it runs the extension `uuid`, and to turn it on if not: once, for this
 * connection. The answer comes through pencil_focus_bus_take_extension_outcome. */
void pencil_focus_bus_turn_on_extension(struct pencil_focus_bus *bus, const char *uuid);
/* What became of that since the last call; for FAILED, the reason in `error`. */
enum pencil_focus_extension_outcome pencil_focus_bus_take_extension_outcome(struct pencil_focus_bus *bus, char *error, size_t error_size);
void pencil_focus_bus_close(struct pencil_focus_bus *bus);
#endif
