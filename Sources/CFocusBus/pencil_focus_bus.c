#include "pencil_focus_bus.h"
#include <systemd/sd-bus.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct pencil_focus_bus {
    sd_bus *bus;
    sd_bus_slot *object;
    sd_bus_slot *owner_match;
    char desktop_name[64];
    /* The desktop's unique name (":1.42"); empty while the name has no owner. Unique names
     * are never reused on a bus, so one that matched once stays the desktop's. */
    char desktop_owner[256];
    int desktop_arrived;
    int known;
    int app_valid;
    char app[PENCIL_FOCUS_APP_MAX + 1];
    unsigned long refused;
    unsigned long forged_signals;
};

static void set_owner(struct pencil_focus_bus *focus, const char *owner) {
    snprintf(focus->desktop_owner, sizeof focus->desktop_owner, "%s", owner ? owner : "");
}

static void refresh_owner(struct pencil_focus_bus *focus) {
    sd_bus_creds *creds = NULL;
    const char *unique = NULL;
    if (sd_bus_get_name_creds(focus->bus, focus->desktop_name, SD_BUS_CREDS_UNIQUE_NAME, &creds) >= 0 &&
        sd_bus_creds_get_unique_name(creds, &unique) >= 0) {
        set_owner(focus, unique);
    } else {
        set_owner(focus, "");
    }
    sd_bus_creds_unref(creds);
}

static int sender_is_desktop(struct pencil_focus_bus *focus, sd_bus_message *message) {
    const char *sender = sd_bus_message_get_sender(message);
    if (!sender) return 0;
    if (focus->desktop_owner[0] == '\0' || strcmp(sender, focus->desktop_owner) != 0) refresh_owner(focus);
    if (focus->desktop_owner[0] == '\0' || strcmp(sender, focus->desktop_owner) != 0) return 0;
    /* The bus says who the peer is: the same user as pencil-actions, or nobody. */
    sd_bus_creds *creds = NULL;
    uid_t uid;
    int same_user = sd_bus_query_sender_creds(message, SD_BUS_CREDS_EUID, &creds) >= 0 &&
                    sd_bus_creds_get_euid(creds, &uid) >= 0 && uid == geteuid();
    sd_bus_creds_unref(creds);
    return same_user;
}

static int set_focused_app(sd_bus_message *message, void *userdata, sd_bus_error *error) {
    struct pencil_focus_bus *focus = userdata;
    if (!sender_is_desktop(focus, message)) {
        focus->refused++;
        return sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED, "only %s, of this user, reports the focus", focus->desktop_name);
    }
    const char *app = NULL;
    int r = sd_bus_message_read(message, "s", &app);
    if (r < 0) return r;
    size_t length = strnlen(app, PENCIL_FOCUS_APP_MAX + 1);
    focus->known = 1;
    /* Too long is no id: cut short, it could match some other app's pattern. */
    focus->app_valid = length > 0 && length <= PENCIL_FOCUS_APP_MAX;
    if (focus->app_valid) {
        memcpy(focus->app, app, length);
        focus->app[length] = '\0';
    }
    return sd_bus_reply_method_return(message, "");
}

static const sd_bus_vtable actions_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("SetFocusedApp", "s", "", set_focused_app, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_VTABLE_END,
};

static int owner_changed(sd_bus_message *message, void *userdata, sd_bus_error *error) {
    struct pencil_focus_bus *focus = userdata;
    const char *name = NULL, *old_owner = NULL, *new_owner = NULL;
    (void)error;
    /* Any peer may send this signal to pencil-actions directly (the match rule only governs
     * what the bus broadcasts to it): only the bus itself, whose name no peer can take, is
     * believed. */
    const char *sender = sd_bus_message_get_sender(message);
    if (sd_bus_message_read(message, "sss", &name, &old_owner, &new_owner) < 0) return 0;
    if (strcmp(name, focus->desktop_name) != 0) return 0;
    if (!sender || strcmp(sender, "org.freedesktop.DBus") != 0) {
        focus->forged_signals++;
        return 0;
    }
    set_owner(focus, new_owner);
    /* What the old desktop said is no longer true. */
    focus->known = 0;
    focus->app_valid = 0;
    if (new_owner && new_owner[0]) focus->desktop_arrived = 1;
    return 0;
}

struct pencil_focus_bus *pencil_focus_bus_open(const char *address, const char *desktop_name, char *error, size_t error_size) {
    struct pencil_focus_bus *focus = calloc(1, sizeof *focus);
    int r;
    if (!focus) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    snprintf(focus->desktop_name, sizeof focus->desktop_name, "%s", desktop_name);
    if (address) {
        r = sd_bus_new(&focus->bus);
        if (r >= 0) r = sd_bus_set_address(focus->bus, address);
        if (r >= 0) r = sd_bus_set_bus_client(focus->bus, 1);
        if (r >= 0) r = sd_bus_start(focus->bus);
    } else {
        r = sd_bus_open_user(&focus->bus);
    }
    if (r < 0) {
        snprintf(error, error_size, "cannot connect to the session bus (%s)", strerror(-r));
        goto fail;
    }
    r = sd_bus_add_object_vtable(focus->bus, &focus->object, PENCIL_FOCUS_BUS_PATH, PENCIL_FOCUS_BUS_INTERFACE, actions_vtable, focus);
    if (r >= 0) {
        r = sd_bus_match_signal(focus->bus, &focus->owner_match, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                "org.freedesktop.DBus", "NameOwnerChanged", owner_changed, focus);
    }
    if (r < 0) {
        snprintf(error, error_size, "cannot set up the session bus object (%s)", strerror(-r));
        goto fail;
    }
    r = sd_bus_request_name(focus->bus, PENCIL_FOCUS_BUS_NAME, 0);
    if (r < 0) {
        snprintf(error, error_size, "cannot own %s on the session bus (%s): is another pencil-actions running?", PENCIL_FOCUS_BUS_NAME, strerror(-r));
        goto fail;
    }
    refresh_owner(focus);
    return focus;
fail:
    pencil_focus_bus_close(focus);
    return NULL;
}

int pencil_focus_bus_fd(struct pencil_focus_bus *focus) { return sd_bus_get_fd(focus->bus); }

int pencil_focus_bus_process(struct pencil_focus_bus *focus, char *error, size_t error_size) {
    int r;
    while ((r = sd_bus_process(focus->bus, NULL)) > 0) {}
    if (r < 0) {
        snprintf(error, error_size, "the session bus connection ended (%s)", strerror(-r));
        return -1;
    }
    return 0;
}

int pencil_focus_bus_flush(struct pencil_focus_bus *focus) { return sd_bus_flush(focus->bus) < 0 ? -1 : 0; }

int pencil_focus_bus_known(struct pencil_focus_bus *focus) { return focus->known; }

const char *pencil_focus_bus_app(struct pencil_focus_bus *focus) { return focus->known && focus->app_valid ? focus->app : NULL; }

int pencil_focus_bus_desktop_present(struct pencil_focus_bus *focus) { return focus->desktop_owner[0] != '\0'; }

int pencil_focus_bus_take_desktop_arrival(struct pencil_focus_bus *focus) {
    int arrived = focus->desktop_arrived;
    focus->desktop_arrived = 0;
    return arrived;
}

unsigned long pencil_focus_bus_refused(struct pencil_focus_bus *focus) { return focus->refused; }

unsigned long pencil_focus_bus_forged_signals(struct pencil_focus_bus *focus) { return focus->forged_signals; }

int pencil_focus_bus_load_kwin_script(struct pencil_focus_bus *focus, const char *path, const char *plugin_name, char *error, size_t error_size) {
    sd_bus_error call_error = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    int32_t id = -1;
    /* A script of an earlier pencil-actions (still loaded under this name) would make
     * loadScript refuse: unloaded first; that there was none is no error. */
    sd_bus_call_method(focus->bus, "org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "unloadScript", NULL, NULL, "s", plugin_name);
    int r = sd_bus_call_method(focus->bus, "org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "loadScript", &call_error, &reply, "ss", path, plugin_name);
    if (r >= 0) r = sd_bus_message_read(reply, "i", &id);
    sd_bus_message_unref(reply);
    reply = NULL;
    if (r < 0 || id < 0) {
        snprintf(error, error_size, "KWin did not load %s (%s)", path, call_error.message ? call_error.message : r < 0 ? strerror(-r) : "loadScript returned -1");
        sd_bus_error_free(&call_error);
        return -1;
    }
    sd_bus_error_free(&call_error);
    r = sd_bus_call_method(focus->bus, "org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "start", &call_error, NULL, "");
    if (r < 0) {
        snprintf(error, error_size, "KWin did not start its scripts (%s)", call_error.message ? call_error.message : strerror(-r));
        sd_bus_error_free(&call_error);
        return -1;
    }
    return 0;
}

void pencil_focus_bus_close(struct pencil_focus_bus *focus) {
    if (!focus) return;
    sd_bus_slot_unref(focus->owner_match);
    sd_bus_slot_unref(focus->object);
    if (focus->bus) sd_bus_flush_close_unref(focus->bus);
    free(focus);
}
