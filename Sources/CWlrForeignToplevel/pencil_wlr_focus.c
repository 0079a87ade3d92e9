#include "pencil_wlr_focus.h"
#include "wlr-foreign-toplevel-management-unstable-v1-client-protocol.h"
#include <wayland-client.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A compositor (or a client that makes windows) could announce any number of toplevels:
 * past this many the rest are destroyed unread, and cannot be taken for the focused one. */
#define MAX_TOPLEVELS 1024

struct toplevel {
    struct pencil_wlr_focus *owner;
    struct zwlr_foreign_toplevel_handle_v1 *handle;
    /* The state as of the last `done`, and what has arrived since. */
    char app_id[PENCIL_WLR_APP_ID_MAX + 1];
    int app_id_valid;
    int activated;
    char pending_app_id[PENCIL_WLR_APP_ID_MAX + 1];
    int pending_app_id_valid;
    int pending_app_id_set;
    int pending_activated;
    int pending_state_set;
    struct wl_list link;
};

struct pencil_wlr_focus {
    struct wl_display *display;
    struct wl_registry *registry;
    struct zwlr_foreign_toplevel_manager_v1 *manager;
    uint32_t manager_name;
    uint32_t manager_version;
    struct wl_list toplevels;
    int count;
    int finished;
};

static void toplevel_free(struct toplevel *toplevel) {
    wl_list_remove(&toplevel->link);
    toplevel->owner->count--;
    zwlr_foreign_toplevel_handle_v1_destroy(toplevel->handle);
    free(toplevel);
}

static void handle_title(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, const char *title) {
    (void)data; (void)handle; (void)title;
}

static void handle_app_id(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, const char *app_id) {
    struct toplevel *toplevel = data;
    (void)handle;
    size_t length = app_id ? strnlen(app_id, PENCIL_WLR_APP_ID_MAX + 1) : 0;
    toplevel->pending_app_id_set = 1;
    /* An over-long id is no id: cut short, it could match another app's pattern. */
    toplevel->pending_app_id_valid = length > 0 && length <= PENCIL_WLR_APP_ID_MAX;
    if (toplevel->pending_app_id_valid) {
        memcpy(toplevel->pending_app_id, app_id, length);
        toplevel->pending_app_id[length] = '\0';
    }
}

static void handle_output(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, struct wl_output *output) {
    (void)data; (void)handle; (void)output;
}

static void handle_state(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, struct wl_array *state) {
    struct toplevel *toplevel = data;
    (void)handle;
    int activated = 0;
    uint32_t *entry;
    wl_array_for_each(entry, state) {
        if (*entry == ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_ACTIVATED) activated = 1;
    }
    toplevel->pending_state_set = 1;
    toplevel->pending_activated = activated;
}

static void handle_done(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle) {
    struct toplevel *toplevel = data;
    (void)handle;
    if (toplevel->pending_app_id_set) {
        toplevel->app_id_valid = toplevel->pending_app_id_valid;
        memcpy(toplevel->app_id, toplevel->pending_app_id, sizeof toplevel->app_id);
        toplevel->pending_app_id_set = 0;
    }
    if (toplevel->pending_state_set) {
        toplevel->activated = toplevel->pending_activated;
        toplevel->pending_state_set = 0;
    }
}

static void handle_closed(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle) {
    (void)handle;
    toplevel_free(data);
}

static void handle_parent(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, struct zwlr_foreign_toplevel_handle_v1 *parent) {
    (void)data; (void)handle; (void)parent;
}

static const struct zwlr_foreign_toplevel_handle_v1_listener toplevel_listener = {
    .title = handle_title,
    .app_id = handle_app_id,
    .output_enter = handle_output,
    .output_leave = handle_output,
    .state = handle_state,
    .done = handle_done,
    .closed = handle_closed,
    .parent = handle_parent,
};

static void manager_toplevel(void *data, struct zwlr_foreign_toplevel_manager_v1 *manager, struct zwlr_foreign_toplevel_handle_v1 *handle) {
    struct pencil_wlr_focus *focus = data;
    (void)manager;
    struct toplevel *toplevel = focus->count < MAX_TOPLEVELS ? calloc(1, sizeof *toplevel) : NULL;
    if (!toplevel) {
        zwlr_foreign_toplevel_handle_v1_destroy(handle);
        return;
    }
    toplevel->owner = focus;
    toplevel->handle = handle;
    wl_list_insert(&focus->toplevels, &toplevel->link);
    focus->count++;
    zwlr_foreign_toplevel_handle_v1_add_listener(handle, &toplevel_listener, toplevel);
}

static void manager_finished(void *data, struct zwlr_foreign_toplevel_manager_v1 *manager) {
    struct pencil_wlr_focus *focus = data;
    (void)manager;
    focus->finished = 1;
}

static const struct zwlr_foreign_toplevel_manager_v1_listener manager_listener = {
    .toplevel = manager_toplevel,
    .finished = manager_finished,
};

static void registry_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    struct pencil_wlr_focus *focus = data;
    if (strcmp(interface, zwlr_foreign_toplevel_manager_v1_interface.name) == 0 && !focus->manager) {
        focus->manager_name = name;
        focus->manager_version = version < 3 ? version : 3;
        focus->manager = wl_registry_bind(registry, name, &zwlr_foreign_toplevel_manager_v1_interface, focus->manager_version);
        zwlr_foreign_toplevel_manager_v1_add_listener(focus->manager, &manager_listener, focus);
    }
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    struct pencil_wlr_focus *focus = data;
    (void)registry;
    if (focus->manager && name == focus->manager_name) focus->finished = 1;
}

static const struct wl_registry_listener registry_listener = {
    .global = registry_global,
    .global_remove = registry_global_remove,
};

struct pencil_wlr_focus *pencil_wlr_focus_connect(const char *display, char *error, size_t error_size) {
    struct pencil_wlr_focus *focus = calloc(1, sizeof *focus);
    if (!focus) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    wl_list_init(&focus->toplevels);
    focus->display = wl_display_connect(display);
    if (!focus->display) {
        snprintf(error, error_size, "cannot connect to the Wayland compositor at %s (%s)", display ? display : "$WAYLAND_DISPLAY", strerror(errno));
        free(focus);
        return NULL;
    }
    focus->registry = wl_display_get_registry(focus->display);
    wl_registry_add_listener(focus->registry, &registry_listener, focus);
    /* The globals, then the toplevels the manager announces at once. */
    if (wl_display_roundtrip(focus->display) < 0 || (focus->manager && wl_display_roundtrip(focus->display) < 0)) {
        snprintf(error, error_size, "the Wayland compositor closed the connection");
        pencil_wlr_focus_destroy(focus);
        return NULL;
    }
    if (!focus->manager) {
        snprintf(error, error_size, "the Wayland compositor offers no zwlr_foreign_toplevel_manager_v1 (not a wlroots compositor?)");
        pencil_wlr_focus_destroy(focus);
        return NULL;
    }
    return focus;
}

int pencil_wlr_focus_fd(struct pencil_wlr_focus *focus) { return wl_display_get_fd(focus->display); }

int pencil_wlr_focus_dispatch(struct pencil_wlr_focus *focus, char *error, size_t error_size) {
    /* Called when the descriptor is readable: wl_display_dispatch reads without waiting. */
    if (wl_display_dispatch(focus->display) < 0) {
        snprintf(error, error_size, "the Wayland compositor closed the connection (%s)", strerror(wl_display_get_error(focus->display)));
        return -1;
    }
    if (focus->finished) {
        snprintf(error, error_size, "the compositor stopped sending toplevels");
        return -1;
    }
    return 0;
}

int pencil_wlr_focus_flush(struct pencil_wlr_focus *focus) {
    return wl_display_flush(focus->display) < 0 && errno != EAGAIN ? -1 : 0;
}

static struct toplevel *activated(struct pencil_wlr_focus *focus) {
    struct toplevel *toplevel;
    wl_list_for_each(toplevel, &focus->toplevels, link) {
        if (toplevel->activated) return toplevel;
    }
    return NULL;
}

const char *pencil_wlr_focus_app(struct pencil_wlr_focus *focus) {
    struct toplevel *toplevel = activated(focus);
    return toplevel && toplevel->app_id_valid ? toplevel->app_id : NULL;
}

int pencil_wlr_focus_has_activated(struct pencil_wlr_focus *focus) { return activated(focus) != NULL; }

void pencil_wlr_focus_destroy(struct pencil_wlr_focus *focus) {
    if (!focus) return;
    struct toplevel *toplevel, *next;
    wl_list_for_each_safe(toplevel, next, &focus->toplevels, link) toplevel_free(toplevel);
    if (focus->manager) zwlr_foreign_toplevel_manager_v1_destroy(focus->manager);
    if (focus->registry) wl_registry_destroy(focus->registry);
    if (focus->display) wl_display_disconnect(focus->display);
    free(focus);
}
