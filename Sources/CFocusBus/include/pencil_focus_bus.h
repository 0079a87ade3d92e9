#ifndef PENCILD_FOCUS_BUS_H
#define PENCILD_FOCUS_BUS_H
/* pencil-actions' KDE and GNOME focus providers: on the session bus (sd-bus) it owns
 * org.pencild.Actions and takes SetFocusedApp calls at /org/pencild/Actions, from the
 * desktop's own process only (the owner of `desktop_name`: org.kde.KWin, org.gnome.Shell),
 * pushed by the KWin script or the GNOME Shell extension the package ships. */
#include <stddef.h>

#define PENCIL_FOCUS_BUS_NAME "org.pencild.Actions"
#define PENCIL_FOCUS_BUS_PATH "/org/pencild/Actions"
#define PENCIL_FOCUS_BUS_INTERFACE "org.pencild.Actions1"
#define PENCIL_FOCUS_APP_MAX 255

struct pencil_focus_bus;

/* Connects to `address` (NULL: the user's session bus) and takes the name. NULL on failure,
 * with the reason in `error`. */
struct pencil_focus_bus *pencil_focus_bus_open(const char *address, const char *desktop_name, char *error, size_t error_size);
int pencil_focus_bus_fd(struct pencil_focus_bus *bus);
/* Handles everything the bus sent; -1 when the connection ended (the reason in `error`). */
int pencil_focus_bus_process(struct pencil_focus_bus *bus, char *error, size_t error_size);
int pencil_focus_bus_flush(struct pencil_focus_bus *bus);
/* 1 when the desktop has reported the focus since it (last) joined the bus. */
int pencil_focus_bus_known(struct pencil_focus_bus *bus);
/* The focused app's id the desktop reported (NULL: no window, or one without an id). */
const char *pencil_focus_bus_app(struct pencil_focus_bus *bus);
/* 1 while the desktop's name has an owner. */
int pencil_focus_bus_desktop_present(struct pencil_focus_bus *bus);
/* 1 (once) when the desktop's name got a new owner since the last call: a KWin that
 * restarted has lost the script. */
int pencil_focus_bus_take_desktop_arrival(struct pencil_focus_bus *bus);
/* Calls refused: from a process that is not the desktop, or of another user. */
unsigned long pencil_focus_bus_refused(struct pencil_focus_bus *bus);
/* NameOwnerChanged signals ignored because the bus did not send them. */
unsigned long pencil_focus_bus_forged_signals(struct pencil_focus_bus *bus);
/* KWin: loads `path` as the script `plugin_name` over org.kde.kwin.Scripting and starts it. */
int pencil_focus_bus_load_kwin_script(struct pencil_focus_bus *bus, const char *path, const char *plugin_name, char *error, size_t error_size);
void pencil_focus_bus_close(struct pencil_focus_bus *bus);
#endif
