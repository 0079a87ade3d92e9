/*
 * libpencil: a C client for pencild, the tablet pen daemon.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef PENCIL_H
#define PENCIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @mainpage libpencil
 *
 * libpencil receives pen and gesture events from pencild over its varlink socket
 * (the org.pencild.Pen interface) and hands them to an application's own main loop.
 * Its shape follows libinput: an opaque, reference-counted context; a file descriptor
 * to poll; pencil_dispatch() when it is readable; pencil_get_event() until it returns
 * NULL; one accessor per field of an event.
 *
 * @code
 * struct pencil *pencil = pencil_new();
 * pencil_monitor(pencil, NULL, NULL);
 * // in the main loop, when pencil_get_fd(pencil) is readable:
 * pencil_dispatch(pencil);
 * struct pencil_event *event;
 * while ((event = pencil_get_event(pencil))) {
 *         ...
 *         pencil_event_destroy(event);
 * }
 * @endcode
 *
 * **Errors.** Functions that can fail return 0 (or a count) on success and a negative
 * errno value on failure, as libinput does. Calls that reach the daemon can also hand
 * back a struct pencil_error with the daemon's typed error (see pencil_error_get_kind()).
 *
 * **Ownership.** An object returned by a function named *_new, *_get_event, or through
 * an out parameter of a call (pencil_get_preferences(), pencil_list_devices(), an error)
 * belongs to the caller, who releases it with the matching *_destroy, *_unref or
 * *_free. A pointer returned by a *_get_* accessor is borrowed: it stays valid as long
 * as the object it came from, and must not be freed. Strings are UTF-8 and
 * NUL-terminated.
 *
 * **Threads.** A context and everything obtained from it may be used by one thread at a
 * time; different contexts are independent.
 *
 * **Names that a newer daemon may add.** Every string the protocol defines as a name
 * (event types, tools, axes, buttons, phases, actions, focus, preference values) is
 * returned as an enum. A name this version of the library does not know is the enum's
 * UNKNOWN value, never an error; its text is available from the matching *_name
 * accessor. Enum values that mean "the event carries no such field" are 0.
 *
 * **Strings from the daemon are untrusted text.** A device's name and model, a stylus's
 * name, a device id and an unknown name's text come from the device (any USB or uinput
 * device names itself) or from whatever answers on the socket: they may hold terminal
 * escapes, newlines or bidirectional controls. Escape control characters before printing
 * one to a terminal or a log, and never pass one to a shell. Each string is at most 4096
 * bytes: a message with a longer one is malformed (the stream ends with
 * PENCIL_EVENT_DISCONNECTED, a call fails with -EBADMSG).
 *
 * **Preferences from the daemon are whole.** pencil_get_preferences(),
 * pencil_set_preferences()'s result and a preferencesChanged event's preferences carry
 * every field; a reply that lacks one is malformed (-EBADMSG). Only an object made with
 * pencil_preferences_new() is partial.
 */

/** The library's context: one connection to pencild's event stream. Opaque. */
struct pencil;
/** One event, owned by the caller of pencil_get_event(). Opaque. */
struct pencil_event;
/** A pen device (the protocol's Device). Reference-counted. Opaque. */
struct pencil_device;
/** A user's gesture preferences, or a partial set of them to change. Opaque. */
struct pencil_preferences;
/** A failed call's error, owned by the caller. Opaque. */
struct pencil_error;

/* ------------------------------------------------------------------------ */
/* Names                                                                     */
/* ------------------------------------------------------------------------ */

/* Generated from interfaces/org.pencild.Pen.varlink by scripts/generate-from-interface, up to the end marker: do not edit. */

/** The type of an event (docs/protocol.md, Event). */
enum pencil_event_type {
	PENCIL_EVENT_UNKNOWN = -1, /**< a type this library does not know */
	PENCIL_EVENT_DEVICE_ADDED = 1,
	PENCIL_EVENT_DEVICE_REMOVED,
	PENCIL_EVENT_PROXIMITY_IN,
	PENCIL_EVENT_PROXIMITY_OUT,
	PENCIL_EVENT_TIP_DOWN,
	PENCIL_EVENT_TIP_UP,
	PENCIL_EVENT_MOTION,
	PENCIL_EVENT_HOVER,
	PENCIL_EVENT_BUTTON_DOWN,
	PENCIL_EVENT_BUTTON_UP,
	PENCIL_EVENT_DOUBLE_TAP,
	PENCIL_EVENT_SQUEEZE,
	PENCIL_EVENT_PREFERENCES_CHANGED,
	PENCIL_EVENT_DEVICE_CHANGED,
	/**
	 * Made by the library, never sent by the daemon: the event stream ended and the
	 * context does not reconnect (pencil_set_reconnect()). It follows the closing
	 * events the library made for what was open. pencil_event_get_error() tells why.
	 */
	PENCIL_EVENT_DISCONNECTED = 100,
};

/** A tool (docs/protocol.md, Device.tools and Tool.type). */
enum pencil_tool_type {
	PENCIL_TOOL_UNKNOWN = -1,
	PENCIL_TOOL_NONE = 0, /**< the event carries no tool */
	PENCIL_TOOL_PEN,
	PENCIL_TOOL_ERASER,
	PENCIL_TOOL_BRUSH,
	PENCIL_TOOL_PENCIL,
	PENCIL_TOOL_AIRBRUSH,
	PENCIL_TOOL_MOUSE,
	PENCIL_TOOL_LENS,
};

/** An axis a device reports (docs/protocol.md, Device.axes). */
enum pencil_axis {
	PENCIL_AXIS_UNKNOWN = -1,
	PENCIL_AXIS_PRESSURE = 1,
	PENCIL_AXIS_DISTANCE,
	PENCIL_AXIS_TILT,
	PENCIL_AXIS_ROTATION,
	PENCIL_AXIS_SLIDER,
	PENCIL_AXIS_WHEEL,
};

/** A barrel button (docs/protocol.md, Device.buttons and Event.button). */
enum pencil_button {
	PENCIL_BUTTON_UNKNOWN = -1,
	PENCIL_BUTTON_NONE = 0, /**< the event carries no button */
	PENCIL_BUTTON_STYLUS,
	PENCIL_BUTTON_STYLUS2,
	PENCIL_BUTTON_STYLUS3,
	PENCIL_BUTTON_ERASER, /**< "eraser": a pen's eraser button, under eraserButton "button" */
};

/** The phase of a hover or squeeze. */
enum pencil_phase {
	PENCIL_PHASE_UNKNOWN = -1,
	PENCIL_PHASE_NONE = 0, /**< the event carries no phase */
	PENCIL_PHASE_BEGAN,
	PENCIL_PHASE_CHANGED,
	PENCIL_PHASE_ENDED,
	PENCIL_PHASE_CANCELLED,
};

/** A preferred action, as on Apple's UIPencilPreferredAction (docs/gestures.md). */
enum pencil_action {
	PENCIL_ACTION_UNKNOWN = -1,
	PENCIL_ACTION_NONE = 0, /**< the event or preferences carry no action */
	PENCIL_ACTION_IGNORE,
	PENCIL_ACTION_SWITCH_ERASER,
	PENCIL_ACTION_SWITCH_PREVIOUS,
	PENCIL_ACTION_SHOW_COLOR_PALETTE,
	PENCIL_ACTION_SHOW_INK_ATTRIBUTES,
	PENCIL_ACTION_SHOW_CONTEXTUAL_PALETTE,
	PENCIL_ACTION_RUN_SYSTEM_SHORTCUT,
};

/**
 * Which app a double-tap or squeeze is for (docs/protocol.md, "Which app acts").
 * Act on THIS; act on NOBODY too if the app has not claimed focus; never act on OTHER.
 */
enum pencil_focus {
	PENCIL_FOCUS_UNKNOWN = -1,
	PENCIL_FOCUS_UNSET = 0, /**< the event carries no focus (another type, or an older daemon) */
	PENCIL_FOCUS_THIS, /**< "this": the receiving process holds the user's focus */
	PENCIL_FOCUS_OTHER, /**< "other": another process of the user does */
	PENCIL_FOCUS_NOBODY, /**< "none": nobody claimed it */
	PENCIL_FOCUS_PEN,
};

/** The button a gesture listens to (Preferences.tapButton and squeezeButton). */
enum pencil_gesture_button {
	PENCIL_GESTURE_BUTTON_UNKNOWN = -1,
	PENCIL_GESTURE_BUTTON_UNSET = 0, /**< not set (a partial preferences object) */
	PENCIL_GESTURE_BUTTON_STYLUS,
	PENCIL_GESTURE_BUTTON_STYLUS2,
	PENCIL_GESTURE_BUTTON_STYLUS3,
	PENCIL_GESTURE_BUTTON_LONG_PRESS, /**< "longPress": squeezeButton only */
	PENCIL_GESTURE_BUTTON_OFF, /**< "none": the gesture is off */
	PENCIL_GESTURE_BUTTON_ERASER, /**< "eraser": the eraser button of a pen whose eraser is one */
};

/** Preferences.eraserButton: what the eraser button of an AES or MPP pen is. */
enum pencil_eraser_button {
	PENCIL_ERASER_BUTTON_UNKNOWN = -1,
	PENCIL_ERASER_BUTTON_UNSET = 0,
	PENCIL_ERASER_BUTTON_ERASER, /**< "eraser": the eraser tool, as the firmware reports it */
	PENCIL_ERASER_BUTTON_BUTTON, /**< "button": a barrel button named "eraser" */
};

/** What kind of stylus libwacom says a tool is (Stylus.kind). */
enum pencil_stylus_kind {
	PENCIL_STYLUS_KIND_UNKNOWN = -1, /**< a name this library does not know */
	PENCIL_STYLUS_KIND_NONE = 0, /**< the event carries no stylus */
	PENCIL_STYLUS_KIND_GENERAL,
	PENCIL_STYLUS_KIND_INKING,
	PENCIL_STYLUS_KIND_AIRBRUSH,
	PENCIL_STYLUS_KIND_CLASSIC,
	PENCIL_STYLUS_KIND_MARKER,
	PENCIL_STYLUS_KIND_STROKE,
	PENCIL_STYLUS_KIND_PUCK,
	PENCIL_STYLUS_KIND_MOBILE,
	PENCIL_STYLUS_KIND_UNSPECIFIED, /**< "unknown": libwacom itself does not say */
};

/** A stylus's eraser (Stylus.eraser). */
enum pencil_eraser_kind {
	PENCIL_ERASER_KIND_UNKNOWN = -1,
	PENCIL_ERASER_KIND_UNSET = 0,
	PENCIL_ERASER_KIND_NONE, /**< "none" */
	PENCIL_ERASER_KIND_INVERT, /**< "invert": the other end */
	PENCIL_ERASER_KIND_BUTTON, /**< "button": a button the firmware reports as the eraser tool */
};

/* End of the generated names. */

/**
 * The protocol's name of a value ("deviceAdded", "stylus2", "none", ...), or NULL for
 * UNKNOWN, 0 and values out of range. Static strings.
 */
const char *pencil_event_type_to_name(enum pencil_event_type type);
const char *pencil_tool_type_to_name(enum pencil_tool_type tool);
const char *pencil_axis_to_name(enum pencil_axis axis);
const char *pencil_button_to_name(enum pencil_button button);
const char *pencil_phase_to_name(enum pencil_phase phase);
const char *pencil_action_to_name(enum pencil_action action);
const char *pencil_focus_to_name(enum pencil_focus focus);
const char *pencil_gesture_button_to_name(enum pencil_gesture_button button);

/* ------------------------------------------------------------------------ */
/* The context                                                               */
/* ------------------------------------------------------------------------ */

/**
 * The socket pencild listens on, as pencilctl finds it: $PENCILD_SOCKET when set and
 * not empty; else $XDG_RUNTIME_DIR/pencild.sock when that exists and is a socket; else
 * /run/pencild/pencild.sock. Returns a newly allocated string the caller frees with
 * free(), or NULL when out of memory.
 */
char *pencil_default_socket_path(void);

/**
 * A new context for the socket pencil_default_socket_path() names. The context does
 * not connect until pencil_monitor() or a call. Returns NULL when out of memory.
 * The caller holds one reference.
 */
struct pencil *pencil_new(void);

/**
 * A new context for the daemon at @p socket (a path; copied). NULL when out of memory
 * or when @p socket is NULL or longer than a Unix socket address allows.
 */
struct pencil *pencil_new_from_path(const char *socket);

/** Adds a reference; returns @p pencil. */
struct pencil *pencil_ref(struct pencil *pencil);

/**
 * Drops a reference; the last one closes the connections and frees the context and
 * the events still queued in it (events already taken with pencil_get_event() stay
 * valid and still have to be destroyed). Always returns NULL.
 */
struct pencil *pencil_unref(struct pencil *pencil);

/** The path of the socket this context connects to. Borrowed. */
const char *pencil_get_socket_path(const struct pencil *pencil);

/**
 * Whether the context comes back by itself when the event stream ends (the daemon
 * stopped, restarted or closed the connection). With @p reconnect true (the default)
 * the library closes what was open (see pencil_dispatch()), then tries to connect
 * again with back-off (100 ms doubling to 5 s) and subscribes with the same filters;
 * the app sees the daemon's deviceAdded and opening events again. With false, after the
 * closing events it queues one PENCIL_EVENT_DISCONNECTED and stays disconnected until
 * pencil_monitor() is called again. Returns 0.
 */
int pencil_set_reconnect(struct pencil *pencil, bool reconnect);

/**
 * The timeout of synchronous calls (pencil_list_devices(), preferences,
 * pencil_set_focused()), in milliseconds, from connecting to the reply; default 2000.
 * Returns 0, or -EINVAL for a value below 1.
 */
int pencil_set_call_timeout(struct pencil *pencil, int milliseconds);

/**
 * Subscribes to events (org.pencild.Pen.Monitor). @p devices and @p events are
 * NULL-terminated arrays of device ids and event type names (pencil_event_type_to_name()
 * gives the names); NULL means every device / every type. Both are copied, and used
 * again at every reconnection. Calling it again replaces the subscription.
 *
 * Connecting is immediate (a Unix socket); the call is sent without waiting for the
 * daemon. Returns 0 when the subscription is sent; a negative errno when the daemon
 * cannot be reached (-ENOENT, -ECONNREFUSED, -EACCES, ...), in which case a context that
 * reconnects keeps trying in the background, so the app may go on and wait for events.
 * -EINVAL when a filter entry is empty, -E2BIG when the filters exceed the message size
 * bound. The daemon's rejection of the filters (NoSuchDevice, an unknown type) arrives
 * later and ends the stream (see PENCIL_EVENT_DISCONNECTED).
 */
int pencil_monitor(struct pencil *pencil, const char *const *devices, const char *const *events);

/**
 * A file descriptor to poll for reading (POLLIN / G_IO_IN / QSocketNotifier::Read) in
 * the app's main loop. It stays the same for the context's whole life, across
 * reconnections: it is an epoll descriptor that holds the event stream's socket and
 * the reconnection timer (a timerfd), so the app needs no timeout of its own. Owned by
 * the context: do not close it.
 */
int pencil_get_fd(const struct pencil *pencil);

/**
 * Reads what has arrived, without blocking, and queues the events for
 * pencil_get_event(). Call it when the fd is readable (calling it at other times is
 * harmless). When the stream ends it queues the closing events of what was open, per
 * device in the order the devices first appeared: tipUp, buttonUp for each held button,
 * squeeze cancelled, hover ended, proximityOut, deviceRemoved (docs/protocol.md, "When
 * pencild goes away"), each marked synthesized (pencil_event_is_synthesized()), only for
 * types the subscription asked for. Then it reconnects or queues
 * PENCIL_EVENT_DISCONNECTED (pencil_set_reconnect()).
 *
 * Bounded: one call reads at most 256 KiB, and stops reading while 4096 events are
 * queued (the fd then stays readable; whole messages already read come out through
 * pencil_get_event() as the queue empties); a message longer than 1 MiB or one that is
 * not JSON ends the stream as a protocol error.
 *
 * Returns 0, or a negative errno for a failure of the context itself (-ENOMEM); the
 * stream's own ends are events, not errors.
 */
int pencil_dispatch(struct pencil *pencil);

/**
 * The next queued event, or NULL when there is none. The caller owns it and frees it
 * with pencil_event_destroy().
 */
struct pencil_event *pencil_get_event(struct pencil *pencil);

/** Whether the event stream is connected now (false while waiting to reconnect). */
bool pencil_is_connected(const struct pencil *pencil);

/* ------------------------------------------------------------------------ */
/* Synchronous calls                                                         */
/* ------------------------------------------------------------------------ */

/*
 * Each call below opens its own short-lived connection to the daemon, sends one call,
 * waits for the reply for at most the call timeout (pencil_set_call_timeout()), and
 * closes the connection. They block the calling thread for that long at most; the event
 * stream is not touched. On failure they return a negative errno and, when @p error is
 * not NULL, store a new struct pencil_error there (the caller destroys it):
 *
 *   -EINVAL  InvalidPreferences (pencil_error_get_field(), pencil_error_get_reason())
 *   -EACCES  PermissionDenied, or the socket's file mode
 *   -ENODEV  NoSuchDevice (pencil_error_get_device())
 *   -EIO     PreferencesNotSaved (pencil_error_get_reason())
 *   -EUSERS  TooManyClients: the daemon serves as many clients as it may (in all or for
 *            this user; pencil_error_get_message() says which)
 *   -EOPNOTSUPP  the daemon does not have the method (an older daemon)
 *   -EREMOTEIO   another error from the daemon (pencil_error_get_name())
 *   -ETIMEDOUT, -ENOENT, -ECONNREFUSED, -EPIPE, ...: the connection itself
 *   -EBADMSG  a reply that is not the protocol's; -EMSGSIZE a reply over 1 MiB
 *
 * On success *error is left untouched.
 */

/**
 * The pen devices attached now (org.pencild.Pen.ListDevices). On success stores a new
 * array of @p *count device references in @p *devices (release with
 * pencil_device_list_free()) and returns the count.
 */
int pencil_list_devices(struct pencil *pencil, struct pencil_device ***devices, size_t *count,
			struct pencil_error **error);

/** Unrefs each of @p count devices and frees the array; NULL is allowed. */
void pencil_device_list_free(struct pencil_device **devices, size_t count);

/**
 * The calling user's preferences (GetPreferences). On success stores a new object in
 * @p *preferences (the caller destroys it) and returns 0.
 */
int pencil_get_preferences(struct pencil *pencil, struct pencil_preferences **preferences,
			   struct pencil_error **error);

/**
 * Changes the fields set in @p changes (SetPreferences; the others keep their values).
 * When @p result is not NULL, stores the preferences in force afterwards there (a new
 * object). Returns 0 or a negative errno (above).
 */
int pencil_set_preferences(struct pencil *pencil, const struct pencil_preferences *changes,
			   struct pencil_preferences **result, struct pencil_error **error);

/**
 * Says whether this app's window has focus (org.pencild.Pen.SetFocus): call it with
 * true when a window gains focus or the pen enters the app's canvas, false when it
 * loses it. The claim belongs to the calling process and lasts while the process keeps
 * a connection to the daemon (the event stream is one) or until it says false. The
 * context remembers the last value and sends it again first on every connection of its
 * event stream, before Monitor: so a claim made before pencil_monitor() holds, and a
 * restarted daemon gets it back. Double-taps and squeezes then carry PENCIL_FOCUS_THIS
 * (pencil_event_get_focus()). Returns 0 or a negative errno (above; -EOPNOTSUPP from a
 * daemon without SetFocus); the value is remembered either way.
 */
int pencil_set_focused(struct pencil *pencil, bool focused, struct pencil_error **error);

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */
/* ------------------------------------------------------------------------ */

enum pencil_error_kind {
	PENCIL_ERROR_CONNECTION = 1,       /**< could not reach the daemon, or it went away */
	PENCIL_ERROR_TIMEOUT,              /**< no reply within the call timeout */
	PENCIL_ERROR_PROTOCOL,             /**< a message that is not the protocol's, or too long */
	PENCIL_ERROR_INVALID_PREFERENCES,  /**< org.pencild.Pen.InvalidPreferences */
	PENCIL_ERROR_PERMISSION_DENIED,    /**< org.pencild.Pen.PermissionDenied */
	PENCIL_ERROR_NO_SUCH_DEVICE,       /**< org.pencild.Pen.NoSuchDevice */
	PENCIL_ERROR_PREFERENCES_NOT_SAVED,/**< org.pencild.Pen.PreferencesNotSaved */
	PENCIL_ERROR_METHOD_NOT_FOUND,     /**< org.varlink.service.MethodNotFound */
	PENCIL_ERROR_REMOTE,               /**< another error the daemon sent */
	PENCIL_ERROR_TOO_MANY_CLIENTS,     /**< org.pencild.Pen.TooManyClients: the daemon is full */
};

enum pencil_error_kind pencil_error_get_kind(const struct pencil_error *error);
/** The negative errno the failed function returned. */
int pencil_error_get_code(const struct pencil_error *error);
/** The varlink error name ("org.pencild.Pen.InvalidPreferences"), or NULL for local errors. */
const char *pencil_error_get_name(const struct pencil_error *error);
/** InvalidPreferences' field, or NULL. */
const char *pencil_error_get_field(const struct pencil_error *error);
/** InvalidPreferences' and PreferencesNotSaved's reason, or NULL. */
const char *pencil_error_get_reason(const struct pencil_error *error);
/** NoSuchDevice's device id, or NULL. */
const char *pencil_error_get_device(const struct pencil_error *error);
/** A sentence for a person, always set ("longPressDuration: must be between ..."). */
const char *pencil_error_get_message(const struct pencil_error *error);
void pencil_error_destroy(struct pencil_error *error);

/* ------------------------------------------------------------------------ */
/* Events                                                                    */
/* ------------------------------------------------------------------------ */

void pencil_event_destroy(struct pencil_event *event);

enum pencil_event_type pencil_event_get_type(const struct pencil_event *event);
/** The type's text on the wire (also for UNKNOWN types; "disconnected" for DISCONNECTED). Borrowed. */
const char *pencil_event_get_type_name(const struct pencil_event *event);
/** Microseconds: CLOCK_MONOTONIC for live devices, the recorded time in a replay. */
int64_t pencil_event_get_time_usec(const struct pencil_event *event);
/** The device id ("event7", "replay0"), or NULL when the event has none. Borrowed. */
const char *pencil_event_get_device(const struct pencil_event *event);
/** True for the closing events the library made when the stream ended. */
bool pencil_event_is_synthesized(const struct pencil_event *event);
/** The former name of pencil_event_is_synthesized(), kept for the ABI. */
bool pencil_event_is_synthetic(const struct pencil_event *event);

/** deviceAdded's device. Borrowed (pencil_device_ref() to keep it); NULL for other types. */
struct pencil_device *pencil_event_get_device_info(const struct pencil_event *event);
/** preferencesChanged's preferences. Borrowed; NULL for other types. */
const struct pencil_preferences *pencil_event_get_preferences(const struct pencil_event *event);
/** PENCIL_EVENT_DISCONNECTED's reason, or NULL when the daemon simply closed the stream. Borrowed. */
const struct pencil_error *pencil_event_get_error(const struct pencil_event *event);

/** Whether the event carries a tool (proximity, tip, motion, hover, buttons, gestures). */
bool pencil_event_has_tool(const struct pencil_event *event);
enum pencil_tool_type pencil_event_get_tool_type(const struct pencil_event *event);
/** The tool type's text, or NULL without a tool. Borrowed. */
const char *pencil_event_get_tool_type_name(const struct pencil_event *event);
/** The tool's serial number, 0 when unknown or without a tool. */
int64_t pencil_event_get_tool_serial(const struct pencil_event *event);
/** The tool's id (ABS_MISC), 0 when unknown or without a tool. */
int64_t pencil_event_get_tool_id(const struct pencil_event *event);

/**
 * Which pen the tool is, as libwacom names it: only on PROXIMITY_IN, and only when libwacom
 * knows the tool's id. The name is untrusted text from the daemon (show it, never interpret
 * it); borrowed, NULL without a stylus.
 */
bool pencil_event_has_stylus(const struct pencil_event *event);
const char *pencil_event_get_stylus_name(const struct pencil_event *event);
enum pencil_stylus_kind pencil_event_get_stylus_kind(const struct pencil_event *event);
const char *pencil_event_get_stylus_kind_name(const struct pencil_event *event);
/** Its barrel buttons; 0 without a stylus. */
int pencil_event_get_stylus_buttons(const struct pencil_event *event);
enum pencil_eraser_kind pencil_event_get_stylus_eraser(const struct pencil_event *event);
const char *pencil_event_get_stylus_eraser_name(const struct pencil_event *event);

/** Whether the event carries a pose; the getters below return 0 without one. */
bool pencil_event_has_pose(const struct pencil_event *event);
/** Position, 0..1 with the origin top-left. */
double pencil_event_get_x(const struct pencil_event *event);
double pencil_event_get_y(const struct pencil_event *event);
/** Pressure, 0..1 (0 while the tip is up). */
double pencil_event_get_pressure(const struct pencil_event *event);
/*
 * The pose's optional fields: has_* says whether the event carries it (the device has
 * the axis); get_* returns it, or 0 when absent.
 */
/** Position in millimetres from the top-left corner. */
bool pencil_event_has_x_mm(const struct pencil_event *event);
double pencil_event_get_x_mm(const struct pencil_event *event);
bool pencil_event_has_y_mm(const struct pencil_event *event);
double pencil_event_get_y_mm(const struct pencil_event *event);
/** Distance from the surface: 0 at the surface, 1 at the edge of range. */
bool pencil_event_has_z_offset(const struct pencil_event *event);
double pencil_event_get_z_offset(const struct pencil_event *event);
/** Tilt in degrees. */
bool pencil_event_has_tilt_x(const struct pencil_event *event);
double pencil_event_get_tilt_x(const struct pencil_event *event);
bool pencil_event_has_tilt_y(const struct pencil_event *event);
double pencil_event_get_tilt_y(const struct pencil_event *event);
/** Azimuth and altitude in radians (from tilt, as the W3C Pointer Events define them). */
bool pencil_event_has_azimuth(const struct pencil_event *event);
double pencil_event_get_azimuth(const struct pencil_event *event);
bool pencil_event_has_altitude(const struct pencil_event *event);
double pencil_event_get_altitude(const struct pencil_event *event);
/** Barrel rotation in radians (Art Pen). */
bool pencil_event_has_roll(const struct pencil_event *event);
double pencil_event_get_roll(const struct pencil_event *event);
/** Airbrush finger wheel and lens/mouse wheel, 0..1. */
bool pencil_event_has_slider(const struct pencil_event *event);
double pencil_event_get_slider(const struct pencil_event *event);
bool pencil_event_has_wheel(const struct pencil_event *event);
double pencil_event_get_wheel(const struct pencil_event *event);

/** buttonDown/buttonUp's button; PENCIL_BUTTON_NONE for other types. */
enum pencil_button pencil_event_get_button(const struct pencil_event *event);
const char *pencil_event_get_button_name(const struct pencil_event *event);
/** hover's and squeeze's phase; PENCIL_PHASE_NONE for other types. */
enum pencil_phase pencil_event_get_phase(const struct pencil_event *event);
const char *pencil_event_get_phase_name(const struct pencil_event *event);
/** doubleTap's action, and squeeze's with phase ended; PENCIL_ACTION_NONE otherwise. */
enum pencil_action pencil_event_get_action(const struct pencil_event *event);
const char *pencil_event_get_action_name(const struct pencil_event *event);
/** doubleTap's and squeeze's focus; PENCIL_FOCUS_UNSET when the event has none. */
enum pencil_focus pencil_event_get_focus(const struct pencil_event *event);
const char *pencil_event_get_focus_name(const struct pencil_event *event);

/* ------------------------------------------------------------------------ */
/* Devices                                                                   */
/* ------------------------------------------------------------------------ */

struct pencil_device *pencil_device_ref(struct pencil_device *device);
/** Drops a reference; always returns NULL. */
struct pencil_device *pencil_device_unref(struct pencil_device *device);

/** Borrowed strings, valid while the device is. */
const char *pencil_device_get_id(const struct pencil_device *device);
const char *pencil_device_get_name(const struct pencil_device *device);
int pencil_device_get_bus(const struct pencil_device *device);
int pencil_device_get_vendor(const struct pencil_device *device);
int pencil_device_get_product(const struct pencil_device *device);
/** True for a display tablet (the pen is on the screen). */
bool pencil_device_is_direct(const struct pencil_device *device);
bool pencil_device_has_size(const struct pencil_device *device);
/** The active area in millimetres; 0 without a size. */
double pencil_device_get_width_mm(const struct pencil_device *device);
double pencil_device_get_height_mm(const struct pencil_device *device);

size_t pencil_device_get_tool_count(const struct pencil_device *device);
enum pencil_tool_type pencil_device_get_tool(const struct pencil_device *device, size_t index);
const char *pencil_device_get_tool_name(const struct pencil_device *device, size_t index);
bool pencil_device_has_tool(const struct pencil_device *device, enum pencil_tool_type tool);
size_t pencil_device_get_axis_count(const struct pencil_device *device);
enum pencil_axis pencil_device_get_axis(const struct pencil_device *device, size_t index);
const char *pencil_device_get_axis_name(const struct pencil_device *device, size_t index);
bool pencil_device_has_axis(const struct pencil_device *device, enum pencil_axis axis);
size_t pencil_device_get_button_count(const struct pencil_device *device);
enum pencil_button pencil_device_get_button(const struct pencil_device *device, size_t index);
const char *pencil_device_get_button_name(const struct pencil_device *device, size_t index);

/** The tablet's name in libwacom ("Wacom Intuos Pro M"), or NULL when unknown. Borrowed. */
const char *pencil_device_get_model(const struct pencil_device *device);
/** The kernel name ("event12") of the mirror apps read while the pen's gesture clicks are
 * withheld (withholdGestureClicks), or NULL while the pen is not grabbed. Borrowed. */
const char *pencil_device_get_mirror(const struct pencil_device *device);
/** From pencil_list_devices: the styli seen since the device was attached, by name. Borrowed. */
size_t pencil_device_get_stylus_count(const struct pencil_device *device);
const char *pencil_device_get_stylus_name(const struct pencil_device *device, size_t index);
bool pencil_device_has_button(const struct pencil_device *device, enum pencil_button button);

/* ------------------------------------------------------------------------ */
/* Preferences                                                               */
/* ------------------------------------------------------------------------ */

/*
 * Preferences from the daemon have every field set. A new object has none: set the
 * fields to change and pass it to pencil_set_preferences(). The getters return 0 (the
 * enums' UNSET/NONE value, or 0 and 0.0) for a field that is not set.
 */

struct pencil_preferences *pencil_preferences_new(void);
void pencil_preferences_destroy(struct pencil_preferences *preferences);

/*
 * Then, for each field of the protocol's Preferences in its order, its functions:
 * - a named field (doubleTapAction and squeezeAction: actions; tapButton and squeezeButton:
 *   gesture buttons; eraserButton): get and set by enum, and by name. The *_name setters
 *   take the protocol's text, for values newer than this library; the daemon checks them.
 * - a whole number (tapMaxDuration, doubleTapInterval, longPressDuration: milliseconds):
 *   the getter returns -1 when the field is not set.
 * - a number (doubleTapSlop: millimetres): has_* says whether it is set.
 * - a yes-or-no field (withholdGestureClicks: apps do not receive a gesture's clicks;
 *   prefersPencilOnlyDrawing and prefersHoverToolPreview: Apple's, for apps to follow): the
 *   getter returns 1 or 0, or -1 when the field is not set.
 * Each setter returns 0, or -EINVAL for UNKNOWN / UNSET values, a negative whole number or a
 * number that is not finite (the daemon checks ranges and answers InvalidPreferences).
 */
/* The preferences' functions: generated from interfaces/org.pencild.Pen.varlink by scripts/generate-from-interface, up to the end marker: do not edit. */
enum pencil_action pencil_preferences_get_double_tap_action(const struct pencil_preferences *preferences);
const char *pencil_preferences_get_double_tap_action_name(const struct pencil_preferences *preferences);
int pencil_preferences_set_double_tap_action(struct pencil_preferences *preferences, enum pencil_action value);
int pencil_preferences_set_double_tap_action_name(struct pencil_preferences *preferences, const char *name);
enum pencil_action pencil_preferences_get_squeeze_action(const struct pencil_preferences *preferences);
const char *pencil_preferences_get_squeeze_action_name(const struct pencil_preferences *preferences);
int pencil_preferences_set_squeeze_action(struct pencil_preferences *preferences, enum pencil_action value);
int pencil_preferences_set_squeeze_action_name(struct pencil_preferences *preferences, const char *name);
enum pencil_gesture_button pencil_preferences_get_tap_button(const struct pencil_preferences *preferences);
const char *pencil_preferences_get_tap_button_name(const struct pencil_preferences *preferences);
int pencil_preferences_set_tap_button(struct pencil_preferences *preferences, enum pencil_gesture_button value);
int pencil_preferences_set_tap_button_name(struct pencil_preferences *preferences, const char *name);
enum pencil_gesture_button pencil_preferences_get_squeeze_button(const struct pencil_preferences *preferences);
const char *pencil_preferences_get_squeeze_button_name(const struct pencil_preferences *preferences);
int pencil_preferences_set_squeeze_button(struct pencil_preferences *preferences, enum pencil_gesture_button value);
int pencil_preferences_set_squeeze_button_name(struct pencil_preferences *preferences, const char *name);
int pencil_preferences_get_tap_max_duration(const struct pencil_preferences *preferences);
int pencil_preferences_set_tap_max_duration(struct pencil_preferences *preferences, int value);
int pencil_preferences_get_double_tap_interval(const struct pencil_preferences *preferences);
int pencil_preferences_set_double_tap_interval(struct pencil_preferences *preferences, int value);
int pencil_preferences_get_long_press_duration(const struct pencil_preferences *preferences);
int pencil_preferences_set_long_press_duration(struct pencil_preferences *preferences, int value);
bool pencil_preferences_has_double_tap_slop(const struct pencil_preferences *preferences);
double pencil_preferences_get_double_tap_slop(const struct pencil_preferences *preferences);
int pencil_preferences_set_double_tap_slop(struct pencil_preferences *preferences, double value);
int pencil_preferences_get_withhold_gesture_clicks(const struct pencil_preferences *preferences);
int pencil_preferences_set_withhold_gesture_clicks(struct pencil_preferences *preferences, bool value);
enum pencil_eraser_button pencil_preferences_get_eraser_button(const struct pencil_preferences *preferences);
const char *pencil_preferences_get_eraser_button_name(const struct pencil_preferences *preferences);
int pencil_preferences_set_eraser_button(struct pencil_preferences *preferences, enum pencil_eraser_button value);
int pencil_preferences_set_eraser_button_name(struct pencil_preferences *preferences, const char *name);
int pencil_preferences_get_prefers_pencil_only_drawing(const struct pencil_preferences *preferences);
int pencil_preferences_set_prefers_pencil_only_drawing(struct pencil_preferences *preferences, bool value);
int pencil_preferences_get_prefers_hover_tool_preview(const struct pencil_preferences *preferences);
int pencil_preferences_set_prefers_hover_tool_preview(struct pencil_preferences *preferences, bool value);
int pencil_preferences_get_mirror_switches_tool(const struct pencil_preferences *preferences);
int pencil_preferences_set_mirror_switches_tool(struct pencil_preferences *preferences, bool value);
/* End of the generated preferences' functions. */

#ifdef __cplusplus
}
#endif

#endif /* PENCIL_H */
