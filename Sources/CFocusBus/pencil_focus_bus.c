#include "pencil_focus_bus.h"
#include <systemd/sd-bus.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BUS_DRIVER "org.freedesktop.DBus"
#define BUS_DRIVER_PATH "/org/freedesktop/DBus"

enum owner_user {
    /* GetConnectionUnixUser is on its way: the owner's calls are held. */
    OWNER_USER_ASKING,
    OWNER_USER_SAME,
    OWNER_USER_OTHER,
};

struct pencil_focus_bus {
    sd_bus *bus;
    sd_bus_slot *object;
    sd_bus_slot *owner_match;
    sd_bus_slot *owner_query;
    sd_bus_slot *user_query;
    sd_bus_slot *kwin_call;
    char desktop_name[64];
    char *kwin_script;
    char kwin_plugin[64];
    int owner_known;
    /* The desktop's unique name (":1.42"); empty while the name has no owner. Unique names
     * are never reused on a bus, so one that matched once stays the desktop's. */
    char desktop_owner[256];
    enum owner_user owner_user;
    sd_bus_message *held[PENCIL_FOCUS_HELD_CALLS_MAX];
    size_t held_count;
    int known;
    int app_valid;
    char app[PENCIL_FOCUS_APP_MAX + 1];
    unsigned long refused;
    unsigned long forged_signals;
    enum pencil_focus_kwin_outcome kwin_outcome;
    char kwin_error[512];
    /* The GNOME Shell extension to turn on (empty: none, or asked already). */
    char extension_uuid[128];
    sd_bus_slot *extension_call;
    enum pencil_focus_extension_outcome extension_outcome;
    char extension_error[512];
};

static int refuse(struct pencil_focus_bus *focus, sd_bus_error *error) {
    focus->refused++;
    return sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED, "only %s, of this user, reports the focus", focus->desktop_name);
}

/* Takes the desktop's report in `call` and answers it. */
static int take_report(struct pencil_focus_bus *focus, sd_bus_message *call) {
    const char *app = NULL;
    int r = sd_bus_message_read(call, "s", &app);
    if (r < 0) return sd_bus_reply_method_errno(call, r, NULL);
    size_t length = strnlen(app, PENCIL_FOCUS_APP_MAX + 1);
    focus->known = 1;
    /* Too long is no id: cut short, it could match some other app's pattern. */
    focus->app_valid = length > 0 && length <= PENCIL_FOCUS_APP_MAX;
    if (focus->app_valid) {
        memcpy(focus->app, app, length);
        focus->app[length] = '\0';
    }
    return sd_bus_reply_method_return(call, "");
}

/* Answers the held calls: taken when `take`, else refused with `name` and `why`. */
static void release_held(struct pencil_focus_bus *focus, int take, const char *name, const char *why) {
    for (size_t i = 0; i < focus->held_count; i++) {
        if (take) {
            take_report(focus, focus->held[i]);
        } else {
            sd_bus_reply_method_errorf(focus->held[i], name, "%s", why);
        }
        sd_bus_message_unref(focus->held[i]);
        focus->held[i] = NULL;
    }
    focus->held_count = 0;
}

static int set_focused_app(sd_bus_message *message, void *userdata, sd_bus_error *error) {
    struct pencil_focus_bus *focus = userdata;
    const char *sender = sd_bus_message_get_sender(message);
    /* The sender field is the bus's, never the caller's: a string compare with the owner the
     * bus named is the whole check, with no call to the bus. */
    if (!sender || focus->desktop_owner[0] == '\0' || strcmp(sender, focus->desktop_owner) != 0) return refuse(focus, error);
    switch (focus->owner_user) {
    case OWNER_USER_SAME:
        return take_report(focus, message);
    case OWNER_USER_OTHER:
        return refuse(focus, error);
    case OWNER_USER_ASKING:
        break;
    }
    if (focus->held_count == PENCIL_FOCUS_HELD_CALLS_MAX) {
        return sd_bus_error_setf(error, SD_BUS_ERROR_LIMITS_EXCEEDED, "pencil-actions is still asking the bus which user %s is", sender);
    }
    focus->held[focus->held_count++] = sd_bus_message_ref(message);
    /* Positive without a reply: answered once the bus says which user the desktop is. */
    return 1;
}

static const sd_bus_vtable actions_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("SetFocusedApp", "s", "", set_focused_app, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_VTABLE_END,
};

static void kwin_failed(struct pencil_focus_bus *focus, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(focus->kwin_error, sizeof focus->kwin_error, format, arguments);
    va_end(arguments);
    focus->kwin_outcome = PENCIL_FOCUS_KWIN_FAILED;
}

static const char *reply_error(sd_bus_message *reply) {
    const sd_bus_error *error = sd_bus_message_get_error(reply);
    if (!error) return NULL;
    return error->message ? error->message : error->name;
}

static int kwin_started(sd_bus_message *reply, void *userdata, sd_bus_error *unused) {
    struct pencil_focus_bus *focus = userdata;
    (void)unused;
    focus->kwin_call = sd_bus_slot_unref(focus->kwin_call);
    const char *error = reply_error(reply);
    if (error) {
        kwin_failed(focus, "KWin did not start its scripts (%s)", error);
    } else {
        focus->kwin_outcome = PENCIL_FOCUS_KWIN_STARTED;
    }
    return 0;
}

static int kwin_loaded(sd_bus_message *reply, void *userdata, sd_bus_error *unused) {
    struct pencil_focus_bus *focus = userdata;
    int32_t id = -1;
    (void)unused;
    focus->kwin_call = sd_bus_slot_unref(focus->kwin_call);
    const char *error = reply_error(reply);
    int r = error ? 0 : sd_bus_message_read(reply, "i", &id);
    if (error || r < 0 || id < 0) {
        kwin_failed(focus, "KWin did not load %s (%s)", focus->kwin_script, error ? error : r < 0 ? strerror(-r) : "loadScript returned -1");
        return 0;
    }
    r = sd_bus_call_method_async(focus->bus, &focus->kwin_call, "org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "start",
                                 kwin_started, focus, "");
    if (r < 0) kwin_failed(focus, "cannot ask KWin to start its scripts (%s)", strerror(-r));
    return 0;
}

static int kwin_unloaded(sd_bus_message *reply, void *userdata, sd_bus_error *unused) {
    struct pencil_focus_bus *focus = userdata;
    (void)reply;
    (void)unused;
    focus->kwin_call = sd_bus_slot_unref(focus->kwin_call);
    /* That there was no script to unload is no error. */
    int r = sd_bus_call_method_async(focus->bus, &focus->kwin_call, "org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting",
                                     "loadScript", kwin_loaded, focus, "ss", focus->kwin_script, focus->kwin_plugin);
    if (r < 0) kwin_failed(focus, "cannot ask KWin to load %s (%s)", focus->kwin_script, strerror(-r));
    return 0;
}

/* Loads the script into the KWin that just took the name: a script of an earlier
 * pencil-actions (still loaded under this name) would make loadScript refuse, so it is
 * unloaded first. Each step is sent when the one before was answered. */
static void load_kwin_script(struct pencil_focus_bus *focus) {
    int r = sd_bus_call_method_async(focus->bus, &focus->kwin_call, "org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting",
                                     "unloadScript", kwin_unloaded, focus, "s", focus->kwin_plugin);
    if (r < 0) kwin_failed(focus, "cannot ask KWin to load %s (%s)", focus->kwin_script, strerror(-r));
}

#define SHELL_PATH "/org/gnome/Shell"
#define SHELL_EXTENSIONS "org.gnome.Shell.Extensions"
/* GNOME Shell's ExtensionState: ENABLED (ACTIVE from 46 on), and ENABLING (ACTIVATING). */
#define EXTENSION_STATE_ON 1.0
#define EXTENSION_STATE_TURNING_ON 8.0

static void extension_ends(struct pencil_focus_bus *focus, enum pencil_focus_extension_outcome outcome, const char *format, ...) {
    focus->extension_call = sd_bus_slot_unref(focus->extension_call);
    focus->extension_outcome = outcome;
    focus->extension_error[0] = '\0';
    if (format) {
        va_list arguments;
        va_start(arguments, format);
        vsnprintf(focus->extension_error, sizeof focus->extension_error, format, arguments);
        va_end(arguments);
    }
}

static int extension_enabled(sd_bus_message *reply, void *userdata, sd_bus_error *unused) {
    struct pencil_focus_bus *focus = userdata;
    int done = 0;
    (void)unused;
    const char *error = reply_error(reply);
    if (!error && sd_bus_message_read(reply, "b", &done) >= 0 && done) {
        extension_ends(focus, PENCIL_FOCUS_EXTENSION_TURNED_ON, NULL);
    } else {
        extension_ends(focus, PENCIL_FOCUS_EXTENSION_FAILED, "GNOME Shell did not turn on %s (%s)", focus->extension_uuid,
                       error ? error : "EnableExtension answered false");
    }
    return 0;
}

/* GetExtensionInfo's answer, a{sv}: empty when the Shell does not know the extension; its
 * "state" (a double) says whether it runs. */
static int extension_info(sd_bus_message *reply, void *userdata, sd_bus_error *unused) {
    struct pencil_focus_bus *focus = userdata;
    (void)unused;
    const char *error = reply_error(reply);
    if (error) {
        extension_ends(focus, PENCIL_FOCUS_EXTENSION_FAILED, "GNOME Shell did not say whether %s is on (%s)", focus->extension_uuid, error);
        return 0;
    }
    unsigned entries = 0;
    double state = -1;
    int r = sd_bus_message_enter_container(reply, 'a', "{sv}");
    while (r >= 0 && (r = sd_bus_message_enter_container(reply, 'e', "sv")) > 0) {
        const char *key = NULL;
        const char *contents = NULL;
        char type = 0;
        entries++;
        r = sd_bus_message_read(reply, "s", &key);
        if (r >= 0) r = sd_bus_message_peek_type(reply, &type, &contents);
        if (r >= 0 && strcmp(key, "state") == 0 && contents && strcmp(contents, "d") == 0) {
            r = sd_bus_message_read(reply, "v", "d", &state);
        } else if (r >= 0) {
            r = sd_bus_message_skip(reply, "v");
        }
        if (r >= 0) r = sd_bus_message_exit_container(reply);
    }
    if (r < 0) {
        extension_ends(focus, PENCIL_FOCUS_EXTENSION_FAILED, "GNOME Shell's answer about %s could not be read (%s)", focus->extension_uuid, strerror(-r));
    } else if (entries == 0) {
        extension_ends(focus, PENCIL_FOCUS_EXTENSION_UNKNOWN, NULL);
    } else if (state == EXTENSION_STATE_ON || state == EXTENSION_STATE_TURNING_ON) {
        extension_ends(focus, PENCIL_FOCUS_EXTENSION_WAS_ON, NULL);
    } else {
        focus->extension_call = sd_bus_slot_unref(focus->extension_call);
        r = sd_bus_call_method_async(focus->bus, &focus->extension_call, focus->desktop_owner, SHELL_PATH, SHELL_EXTENSIONS,
                                     "EnableExtension", extension_enabled, focus, "s", focus->extension_uuid);
        if (r < 0) extension_ends(focus, PENCIL_FOCUS_EXTENSION_FAILED, "cannot ask GNOME Shell to turn on %s (%s)", focus->extension_uuid, strerror(-r));
    }
    return 0;
}

/* Asked of the desktop's process itself (its unique name), once the bus said it is this
 * user's: no other process answers for it. */
static void ask_extension(struct pencil_focus_bus *focus) {
    if (focus->extension_uuid[0] == '\0' || focus->extension_call || focus->extension_outcome != PENCIL_FOCUS_EXTENSION_NOTHING_NEW)
        return;
    if (focus->owner_user != OWNER_USER_SAME || focus->desktop_owner[0] == '\0') return;
    int r = sd_bus_call_method_async(focus->bus, &focus->extension_call, focus->desktop_owner, SHELL_PATH, SHELL_EXTENSIONS,
                                     "GetExtensionInfo", extension_info, focus, "s", focus->extension_uuid);
    if (r < 0) extension_ends(focus, PENCIL_FOCUS_EXTENSION_FAILED, "cannot ask GNOME Shell about %s (%s)", focus->extension_uuid, strerror(-r));
}

static int user_answered(sd_bus_message *reply, void *userdata, sd_bus_error *unused) {
    struct pencil_focus_bus *focus = userdata;
    uint32_t uid = (uint32_t)-1;
    (void)unused;
    focus->user_query = sd_bus_slot_unref(focus->user_query);
    int same_user = !sd_bus_message_is_method_error(reply, NULL) && sd_bus_message_read(reply, "u", &uid) >= 0 && uid == geteuid();
    focus->owner_user = same_user ? OWNER_USER_SAME : OWNER_USER_OTHER;
    if (!same_user) focus->refused += focus->held_count;
    release_held(focus, same_user, SD_BUS_ERROR_ACCESS_DENIED, "only the desktop of this user reports the focus");
    ask_extension(focus);
    return 0;
}

/* The bus says `owner` (empty: nobody) owns the desktop's name now. */
static void owner_is(struct pencil_focus_bus *focus, const char *owner) {
    if (!owner) owner = "";
    focus->owner_known = 1;
    if (strcmp(owner, focus->desktop_owner) == 0) return;
    snprintf(focus->desktop_owner, sizeof focus->desktop_owner, "%s", owner);
    /* What the old desktop said is no longer true, and what was asked of it is moot. */
    focus->known = 0;
    focus->app_valid = 0;
    release_held(focus, 0, SD_BUS_ERROR_ACCESS_DENIED, "the desktop's name changed hands");
    focus->user_query = sd_bus_slot_unref(focus->user_query);
    focus->kwin_call = sd_bus_slot_unref(focus->kwin_call);
    focus->extension_call = sd_bus_slot_unref(focus->extension_call);
    focus->owner_user = OWNER_USER_ASKING;
    if (owner[0] == '\0') return;
    /* The bus says which user a peer is: the same user as pencil-actions, or nobody. */
    int r = sd_bus_call_method_async(focus->bus, &focus->user_query, BUS_DRIVER, BUS_DRIVER_PATH, BUS_DRIVER, "GetConnectionUnixUser",
                                     user_answered, focus, "s", owner);
    if (r < 0) focus->owner_user = OWNER_USER_OTHER;
    if (focus->kwin_script) load_kwin_script(focus);
}

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
    if (!sender || strcmp(sender, BUS_DRIVER) != 0) {
        focus->forged_signals++;
        return 0;
    }
    owner_is(focus, new_owner);
    return 0;
}

static int owner_answered(sd_bus_message *reply, void *userdata, sd_bus_error *unused) {
    struct pencil_focus_bus *focus = userdata;
    const char *owner = NULL;
    (void)unused;
    focus->owner_query = sd_bus_slot_unref(focus->owner_query);
    /* NameHasNoOwner: nobody. A NameOwnerChanged that came before this answer was sent
     * earlier by the bus, and one after it later: in the order they come, each is true. */
    if (sd_bus_message_is_method_error(reply, NULL) || sd_bus_message_read(reply, "s", &owner) < 0) owner = "";
    owner_is(focus, owner);
    return 0;
}

struct pencil_focus_bus *pencil_focus_bus_open(const char *address, const char *desktop_name, const char *kwin_script,
                                               const char *kwin_plugin_name, char *error, size_t error_size) {
    struct pencil_focus_bus *focus = calloc(1, sizeof *focus);
    int r;
    if (!focus) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    snprintf(focus->desktop_name, sizeof focus->desktop_name, "%s", desktop_name);
    if (kwin_script) {
        focus->kwin_script = strdup(kwin_script);
        snprintf(focus->kwin_plugin, sizeof focus->kwin_plugin, "%s", kwin_plugin_name ? kwin_plugin_name : "");
        if (!focus->kwin_script) {
            snprintf(error, error_size, "out of memory");
            goto fail;
        }
    }
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
        r = sd_bus_match_signal(focus->bus, &focus->owner_match, BUS_DRIVER, BUS_DRIVER_PATH, BUS_DRIVER, "NameOwnerChanged",
                                owner_changed, focus);
    }
    if (r < 0) {
        snprintf(error, error_size, "cannot set up the session bus object (%s)", strerror(-r));
        goto fail;
    }
    /* After the match, so that every change after the answer comes as a signal; before the
     * name, so that the answer comes before any call to the name (the bus answers in order). */
    r = sd_bus_call_method_async(focus->bus, &focus->owner_query, BUS_DRIVER, BUS_DRIVER_PATH, BUS_DRIVER, "GetNameOwner",
                                 owner_answered, focus, "s", focus->desktop_name);
    if (r < 0) {
        snprintf(error, error_size, "cannot ask the session bus who owns %s (%s)", focus->desktop_name, strerror(-r));
        goto fail;
    }
    r = sd_bus_request_name(focus->bus, PENCIL_FOCUS_BUS_NAME, 0);
    if (r < 0) {
        snprintf(error, error_size, "cannot own %s on the session bus (%s): is another pencil-actions running?", PENCIL_FOCUS_BUS_NAME, strerror(-r));
        goto fail;
    }
    return focus;
fail:
    pencil_focus_bus_close(focus);
    return NULL;
}

int pencil_focus_bus_fd(struct pencil_focus_bus *focus) { return sd_bus_get_fd(focus->bus); }

int pencil_focus_bus_process(struct pencil_focus_bus *focus, unsigned max_messages, char *error, size_t error_size) {
    for (unsigned i = 0; i < max_messages; i++) {
        int r = sd_bus_process(focus->bus, NULL);
        if (r < 0) {
            snprintf(error, error_size, "the session bus connection ended (%s)", strerror(-r));
            return -1;
        }
        if (r == 0) break;
    }
    return 0;
}

int pencil_focus_bus_wants_to_write(struct pencil_focus_bus *focus) {
    int events = sd_bus_get_events(focus->bus);
    return events > 0 && (events & POLLOUT) != 0;
}

uint64_t pencil_focus_bus_deadline(struct pencil_focus_bus *focus) {
    uint64_t deadline = UINT64_MAX;
    if (sd_bus_get_timeout(focus->bus, &deadline) < 0) return UINT64_MAX;
    return deadline;
}

int pencil_focus_bus_known(struct pencil_focus_bus *focus) { return focus->known; }

const char *pencil_focus_bus_app(struct pencil_focus_bus *focus) { return focus->known && focus->app_valid ? focus->app : NULL; }

enum pencil_focus_desktop pencil_focus_bus_desktop(struct pencil_focus_bus *focus) {
    if (!focus->owner_known) return PENCIL_FOCUS_DESKTOP_ASKING;
    return focus->desktop_owner[0] != '\0' ? PENCIL_FOCUS_DESKTOP_PRESENT : PENCIL_FOCUS_DESKTOP_ABSENT;
}

unsigned long pencil_focus_bus_refused(struct pencil_focus_bus *focus) { return focus->refused; }

unsigned long pencil_focus_bus_forged_signals(struct pencil_focus_bus *focus) { return focus->forged_signals; }

enum pencil_focus_kwin_outcome pencil_focus_bus_take_kwin_outcome(struct pencil_focus_bus *focus, char *error, size_t error_size) {
    enum pencil_focus_kwin_outcome outcome = focus->kwin_outcome;
    if (outcome == PENCIL_FOCUS_KWIN_FAILED) snprintf(error, error_size, "%s", focus->kwin_error);
    focus->kwin_outcome = PENCIL_FOCUS_KWIN_NOTHING_NEW;
    return outcome;
}

void pencil_focus_bus_turn_on_extension(struct pencil_focus_bus *focus, const char *uuid) {
    snprintf(focus->extension_uuid, sizeof focus->extension_uuid, "%s", uuid ? uuid : "");
    ask_extension(focus);
}

enum pencil_focus_extension_outcome pencil_focus_bus_take_extension_outcome(struct pencil_focus_bus *focus, char *error, size_t error_size) {
    enum pencil_focus_extension_outcome outcome = focus->extension_outcome;
    if (outcome == PENCIL_FOCUS_EXTENSION_NOTHING_NEW) return outcome;
    if (outcome == PENCIL_FOCUS_EXTENSION_FAILED) snprintf(error, error_size, "%s", focus->extension_error);
    /* Said once: not asked again on this connection. */
    focus->extension_uuid[0] = '\0';
    focus->extension_outcome = PENCIL_FOCUS_EXTENSION_NOTHING_NEW;
    return outcome;
}

void pencil_focus_bus_close(struct pencil_focus_bus *focus) {
    if (!focus) return;
    sd_bus_slot_unref(focus->extension_call);
    for (size_t i = 0; i < focus->held_count; i++) sd_bus_message_unref(focus->held[i]);
    sd_bus_slot_unref(focus->kwin_call);
    sd_bus_slot_unref(focus->user_query);
    sd_bus_slot_unref(focus->owner_query);
    sd_bus_slot_unref(focus->owner_match);
    sd_bus_slot_unref(focus->object);
    /* No flush: it would wait for a bus that may not read. The bus answers the calls left
     * unanswered for us when the connection closes. */
    if (focus->bus) sd_bus_close_unref(focus->bus);
    free(focus->kwin_script);
    free(focus);
}
