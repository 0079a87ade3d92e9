#ifndef PENCILD_WLR_FOCUS_H
#define PENCILD_WLR_FOCUS_H
/* pencil-actions' wlroots focus provider: the app id of the toplevel whose state holds
 * `activated`, from zwlr_foreign_toplevel_manager_v1, through libwayland-client. */
#include <stddef.h>

struct pencil_wlr_focus;

/* Connects to `display` (NULL: $WAYLAND_DISPLAY) and binds the manager; NULL on failure,
 * with the reason in `error`. */
struct pencil_wlr_focus *pencil_wlr_focus_connect(const char *display, char *error, size_t error_size);
int pencil_wlr_focus_fd(struct pencil_wlr_focus *focus);
/* Reads and handles what the compositor sent; -1 when the connection failed or the manager
 * finished (the reason in `error`). */
int pencil_wlr_focus_dispatch(struct pencil_wlr_focus *focus, char *error, size_t error_size);
/* Sends what is queued; -1 on a failed connection. */
int pencil_wlr_focus_flush(struct pencil_wlr_focus *focus);
/* The activated toplevel's app id (at most PENCIL_WLR_APP_ID_MAX bytes), NULL when none is
 * activated or it has none. Valid until the next dispatch. */
const char *pencil_wlr_focus_app(struct pencil_wlr_focus *focus);
/* Whether a toplevel is activated at all. */
int pencil_wlr_focus_has_activated(struct pencil_wlr_focus *focus);
void pencil_wlr_focus_destroy(struct pencil_wlr_focus *focus);

#define PENCIL_WLR_APP_ID_MAX 255
#endif
