/* libpencil's internals, shared by its source files and its unit test. */
#ifndef PENCIL_PRIVATE_H
#define PENCIL_PRIVATE_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pencil.h"
#include "preference-fields.h"

/* Public functions; the version script (libpencil.map) versions them. */
#define PENCIL_EXPORT __attribute__((visibility("default")))

/* The bounds of what the library accepts and keeps (documented in pencil.h). */
#define PENCIL_MAX_MESSAGE (1024 * 1024)  /* one varlink message from the daemon */
#define PENCIL_MAX_CALL (64 * 1024)       /* one call to the daemon (its MaxRequestSize default) */
#define PENCIL_READ_BUDGET (256 * 1024)   /* bytes one pencil_dispatch() reads */
#define PENCIL_MAX_QUEUED 4096            /* events queued before dispatch stops reading */
#define PENCIL_MAX_TRACKED_DEVICES 64     /* devices whose open state is followed */
#define PENCIL_MAX_HELD_BUTTONS 8
#define PENCIL_MAX_LIST 64                /* entries of a device's tools, axes, buttons */
#define PENCIL_MAX_STRING 4096            /* bytes of one string from the daemon (a name, an id); longer is malformed */
#define PENCIL_JSON_DEPTH 16

/* ---- names: a protocol string as an enum value, keeping unknown text ---- */

struct name_table {
	const char *const *names; /* names[value] for value 1..count-1; names[0] unused */
	int count;
};

extern const struct name_table event_type_table, tool_table, axis_table, button_table, phase_table,
	action_table, focus_table, gesture_button_table, eraser_button_table, stylus_kind_table, eraser_kind_table;

/* value: 0 when absent, -1 when unknown (text then holds a copy of the wire's text). */
struct name {
	int value;
	char *text;
};

int name_lookup(const struct name_table *table, const char *text);
const char *name_of(const struct name_table *table, int value);
/* Sets from wire text; -ENOMEM. */
int name_set(struct name *name, const struct name_table *table, const char *text);
const char *name_text(const struct name *name, const struct name_table *table);
int name_copy(struct name *to, const struct name *from);
void name_clear(struct name *name);

/* ---- objects ---- */

enum pose_field {
	POSE_X,
	POSE_Y,
	POSE_X_MM,
	POSE_Y_MM,
	POSE_PRESSURE,
	POSE_Z_OFFSET,
	POSE_TILT_X,
	POSE_TILT_Y,
	POSE_AZIMUTH,
	POSE_ALTITUDE,
	POSE_ROLL,
	POSE_SLIDER,
	POSE_WHEEL,
	POSE_FIELD_COUNT
};
extern const char *const pose_field_names[POSE_FIELD_COUNT];

struct pose {
	double values[POSE_FIELD_COUNT];
	uint32_t present; /* bit per pose_field */
};

struct tool {
	struct name type;
	int64_t serial;
	int64_t id;
};

struct stylus {
	char *name;
	struct name kind, eraser;
	int buttons;
};

struct pencil_event {
	struct name type;
	int64_t time;
	char *device;
	bool synthesized; /* a closing event made up by the library */
	bool has_tool;
	struct tool tool;
	bool has_stylus;
	struct stylus stylus;
	bool has_pose;
	struct pose pose;
	struct name button, phase, action, focus;
	struct pencil_device *device_info;
	struct pencil_preferences *preferences;
	struct pencil_error *error;
	struct pencil_event *next; /* the context's queue */
};

struct name_list {
	struct name *items;
	size_t count;
};

struct pencil_device {
	int refcount;
	char *id;
	char *name;
	int bus, vendor, product;
	bool direct;
	bool has_size;
	double width_mm, height_mm;
	struct name_list tools, axes, buttons;
	char *model;
	char *mirror;
	char **styli; /* the styli's names */
	size_t stylus_count;
};

/* A whole number or a flag is -1 when not set; a name is unset when its value is 0. */
#define PREFERENCE_NAME_MEMBER(field, key, type, table) struct name field;
#define PREFERENCE_INTEGER_MEMBER(field, key) int field;
#define PREFERENCE_NUMBER_MEMBER(field, key) bool has_##field; double field;
#define PREFERENCE_FLAG_MEMBER(field, key) int field;
struct pencil_preferences {
	PREFERENCE_FIELDS(PREFERENCE_NAME_MEMBER, PREFERENCE_INTEGER_MEMBER, PREFERENCE_NUMBER_MEMBER,
			  PREFERENCE_FLAG_MEMBER)
};

struct pencil_error {
	enum pencil_error_kind kind;
	int code;
	char *name, *field, *reason, *device, *message;
};

struct pencil_event *event_new(void);
/* Decodes an Event object; -EBADMSG when it is not the protocol's, -ENOMEM. */
/* The string in @value, or NULL when it is not a string or is over PENCIL_MAX_STRING bytes. */
const char *json_bounded_string(struct json_object *value);
int event_decode(struct json_object *object, struct pencil_event **out);
int device_decode(struct json_object *object, struct pencil_device **out);
int preferences_decode(struct json_object *object, struct pencil_preferences **out);
/* The fields that are set, as a JSON object (new reference), or NULL when out of memory. */
struct json_object *preferences_encode(const struct pencil_preferences *preferences);
int tool_copy(struct tool *to, const struct tool *from);
void tool_clear(struct tool *tool);

/* What a stream has opened and not closed (closeout.c). */
struct track;
struct closeout {
	struct track *tracks; /* in the order the devices first appeared */
	size_t count;
};
void closeout_observe(struct closeout *closeout, const struct pencil_event *event);
/* The closing events of everything open, of the types in the NULL-terminated @types (NULL:
 * all), as a list linked by ->next in *out; then nothing is open. -ENOMEM. */
int closeout_close(struct closeout *closeout, char *const *types, struct pencil_event **out);
void closeout_clear(struct closeout *closeout);

/* A new error; message is formatted. NULL when out of memory. */
struct pencil_error *error_new(enum pencil_error_kind kind, int code, const char *format, ...)
	__attribute__((format(printf, 3, 4)));
/* The error of a varlink error reply (name and parameters). */
struct pencil_error *error_from_reply(const char *name, struct json_object *parameters);
/* Stores error in *out when out is not NULL, else destroys it; returns its code (or -ENOMEM). */
int error_give(struct pencil_error *error, struct pencil_error **out, int code_if_null);

/* ---- the wire: NUL-terminated JSON messages ---- */

struct framer {
	char *data;
	size_t start, length, capacity; /* unread bytes are data[start .. start+length) */
	size_t maximum;
	struct json_tokener *tokener;
};

int framer_init(struct framer *framer, size_t maximum);
void framer_release(struct framer *framer);
void framer_reset(struct framer *framer);
/* Room for at least `want` more bytes at framer->data + start + length; returns the room, or -ENOMEM. */
long framer_reserve(struct framer *framer, size_t want);
/*
 * The next whole message parsed as JSON into *message (new reference): 1; 0 when no
 * whole message has arrived; -EMSGSIZE when the unread part exceeds the maximum without
 * a terminator; -EBADMSG when a message is not one JSON value.
 */
int framer_next(struct framer *framer, struct json_object **message);

/* A varlink call message, NUL included, in a new buffer; -ENOMEM, -E2BIG. */
int call_encode(const char *method, struct json_object *parameters, bool more, char **out, size_t *length);

/* A reply's parts: the error name (or NULL), the parameters (or NULL), continues. */
int reply_parse(struct json_object *reply, const char **error_name, struct json_object **parameters,
		bool *continues);

/* A connected non-blocking Unix stream socket; -errno. */
int socket_connect(const char *path);

/*
 * One synchronous call on its own connection, waiting at most timeout_ms in total. On
 * success *parameters holds the reply's parameters (new reference, never NULL).
 */
int sync_call(const char *path, int timeout_ms, const char *method, struct json_object *parameters,
	      struct json_object **reply_parameters, struct pencil_error **error);

int64_t monotonic_usec(void);

#endif
