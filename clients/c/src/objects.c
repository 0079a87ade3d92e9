/* Events, devices, preferences and errors: their JSON form and their accessors. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"


/* ---- reading JSON: a present field of the wrong kind is a malformed message ---- */

/* A string the daemon sent, or NULL when it is not one or is longer than PENCIL_MAX_STRING
 * bytes: no name, id or reason is that long, and a library that kept every such string
 * would hold whatever a daemon (or an impostor on its socket) sends. */
const char *json_bounded_string(struct json_object *value)
{
	if (!json_object_is_type(value, json_type_string) || json_object_get_string_len(value) > PENCIL_MAX_STRING)
		return NULL;
	return json_object_get_string(value);
}

/* 1 and the string; 0 when absent or null; -EBADMSG when not a string, or too long. */
static int json_string_field(struct json_object *object, const char *key, const char **out)
{
	struct json_object *value;
	*out = NULL;
	if (!json_object_object_get_ex(object, key, &value) || !value)
		return 0;
	if (!(*out = json_bounded_string(value)))
		return -EBADMSG;
	return 1;
}

static bool json_is_number(struct json_object *value)
{
	return json_object_is_type(value, json_type_int) || json_object_is_type(value, json_type_double);
}

static int json_double_field(struct json_object *object, const char *key, double *out)
{
	struct json_object *value;
	if (!json_object_object_get_ex(object, key, &value) || !value)
		return 0;
	if (!json_is_number(value))
		return -EBADMSG;
	*out = json_object_get_double(value);
	return isfinite(*out) ? 1 : -EBADMSG;
}

static int json_int_field(struct json_object *object, const char *key, int64_t *out)
{
	struct json_object *value;
	if (!json_object_object_get_ex(object, key, &value) || !value)
		return 0;
	if (!json_object_is_type(value, json_type_int))
		return -EBADMSG;
	*out = json_object_get_int64(value);
	/* json-c saturates a number above INT64_MAX: refuse it, as the other libraries do. */
	if (*out == INT64_MAX && json_object_get_uint64(value) > (uint64_t)INT64_MAX)
		return -EBADMSG;
	return 1;
}

/* A string field that names an enum value. */
static int json_name_field(struct json_object *object, const char *key, const struct name_table *table,
			   struct name *name)
{
	const char *text;
	int found = json_string_field(object, key, &text);
	if (found <= 0)
		return found;
	return name_set(name, table, text);
}

static char *strdup_or_null(const char *text)
{
	return text ? strdup(text) : NULL;
}

/* ---- tools and poses ---- */

int tool_copy(struct tool *to, const struct tool *from)
{
	to->serial = from->serial;
	to->id = from->id;
	return name_copy(&to->type, &from->type);
}

void tool_clear(struct tool *tool)
{
	name_clear(&tool->type);
	tool->serial = tool->id = 0;
}

static int tool_decode(struct json_object *object, struct tool *tool)
{
	const char *type;
	int result;
	if (!json_object_is_type(object, json_type_object))
		return -EBADMSG;
	if (json_string_field(object, "type", &type) != 1)
		return -EBADMSG;
	if ((result = name_set(&tool->type, &tool_table, type)) < 0)
		return result;
	if (json_int_field(object, "serial", &tool->serial) < 0 || json_int_field(object, "id", &tool->id) < 0)
		return -EBADMSG;
	return 0;
}

static int pose_decode(struct json_object *object, struct pose *pose)
{
	if (!json_object_is_type(object, json_type_object))
		return -EBADMSG;
	for (int field = 0; field < POSE_FIELD_COUNT; field++) {
		int found = json_double_field(object, pose_field_names[field], &pose->values[field]);
		if (found < 0)
			return found;
		if (found)
			pose->present |= 1u << field;
	}
	/* x, y and pressure are required. */
	const uint32_t required = 1u << POSE_X | 1u << POSE_Y | 1u << POSE_PRESSURE;
	return (pose->present & required) == required ? 0 : -EBADMSG;
}

/* ---- devices ---- */

static void name_list_clear(struct name_list *list)
{
	for (size_t i = 0; i < list->count; i++)
		name_clear(&list->items[i]);
	free(list->items);
	list->items = NULL;
	list->count = 0;
}

static int name_list_decode(struct json_object *object, const char *key, const struct name_table *table,
			    struct name_list *list)
{
	struct json_object *array;
	if (!json_object_object_get_ex(object, key, &array) || !json_object_is_type(array, json_type_array))
		return -EBADMSG;
	size_t count = json_object_array_length(array);
	if (count > PENCIL_MAX_LIST)
		return -EBADMSG;
	list->items = calloc(count ? count : 1, sizeof(*list->items));
	if (!list->items)
		return -ENOMEM;
	for (size_t i = 0; i < count; i++) {
		const char *text = json_bounded_string(json_object_array_get_idx(array, i));
		if (!text)
			return -EBADMSG;
		list->count = i + 1;
		int result = name_set(&list->items[i], table, text);
		if (result < 0)
			return result;
	}
	return 0;
}

static int device_identity_decode(struct json_object *object, struct pencil_device *device);

int device_decode(struct json_object *object, struct pencil_device **out)
{
	const char *id, *name;
	int64_t bus = 0, vendor = 0, product = 0;
	struct json_object *direct;
	int result = -EBADMSG;

	if (!json_object_is_type(object, json_type_object))
		return -EBADMSG;
	struct pencil_device *device = calloc(1, sizeof(*device));
	if (!device)
		return -ENOMEM;
	device->refcount = 1;
	if (json_string_field(object, "id", &id) != 1 || json_string_field(object, "name", &name) != 1)
		goto fail;
	if (json_int_field(object, "bus", &bus) < 0 || json_int_field(object, "vendor", &vendor) < 0 ||
	    json_int_field(object, "product", &product) < 0)
		goto fail;
	device->bus = (int)bus;
	device->vendor = (int)vendor;
	device->product = (int)product;
	if (json_object_object_get_ex(object, "direct", &direct)) {
		if (!json_object_is_type(direct, json_type_boolean))
			goto fail;
		device->direct = json_object_get_boolean(direct);
	}
	int width = json_double_field(object, "widthMillimeters", &device->width_mm);
	int height = json_double_field(object, "heightMillimeters", &device->height_mm);
	if (width < 0 || height < 0)
		goto fail;
	device->has_size = width == 1 && height == 1;
	if (!device->has_size)
		device->width_mm = device->height_mm = 0;
	result = -ENOMEM;
	device->id = strdup(id);
	device->name = strdup(name);
	if (!device->id || !device->name)
		goto fail;
	if ((result = name_list_decode(object, "tools", &tool_table, &device->tools)) < 0 ||
	    (result = name_list_decode(object, "axes", &axis_table, &device->axes)) < 0 ||
	    (result = name_list_decode(object, "buttons", &button_table, &device->buttons)) < 0)
		goto fail;
	if ((result = device_identity_decode(object, device)) < 0)
		goto fail;
	*out = device;
	return 0;
fail:
	pencil_device_unref(device);
	return result;
}

/* model and the styli's names: libwacom's, through the daemon; the mirror's kernel name;
 * all optional. */
static int device_identity_decode(struct json_object *object, struct pencil_device *device)
{
	const char *model, *mirror;
	struct json_object *styli;
	if (json_string_field(object, "model", &model) < 0)
		return -EBADMSG;
	if (model && !(device->model = strdup(model)))
		return -ENOMEM;
	if (json_string_field(object, "mirror", &mirror) < 0)
		return -EBADMSG;
	if (mirror && !(device->mirror = strdup(mirror)))
		return -ENOMEM;
	if (!json_object_object_get_ex(object, "styli", &styli) || !styli)
		return 0;
	if (!json_object_is_type(styli, json_type_array))
		return -EBADMSG;
	size_t count = json_object_array_length(styli);
	if (count > PENCIL_MAX_LIST)
		return -EBADMSG;
	if (count == 0)
		return 0;
	device->styli = calloc(count, sizeof(*device->styli));
	if (!device->styli)
		return -ENOMEM;
	for (size_t i = 0; i < count; i++) {
		const char *name;
		if (json_string_field(json_object_array_get_idx(styli, i), "name", &name) != 1)
			return -EBADMSG;
		if (!(device->styli[i] = strdup(name)))
			return -ENOMEM;
		device->stylus_count = i + 1;
	}
	return 0;
}

/* The device's plain fields, as stored. */
#define DEVICE_FIELD(type, function, field)                                                        \
	PENCIL_EXPORT type pencil_device_##function(const struct pencil_device *device)             \
	{                                                                                          \
		return device->field;                                                              \
	}

DEVICE_FIELD(const char *, get_model, model)
DEVICE_FIELD(const char *, get_mirror, mirror)
DEVICE_FIELD(const char *, get_id, id)
DEVICE_FIELD(const char *, get_name, name)
DEVICE_FIELD(int, get_bus, bus)
DEVICE_FIELD(int, get_vendor, vendor)
DEVICE_FIELD(int, get_product, product)
DEVICE_FIELD(bool, is_direct, direct)
DEVICE_FIELD(bool, has_size, has_size)
DEVICE_FIELD(double, get_width_mm, width_mm)
DEVICE_FIELD(double, get_height_mm, height_mm)

PENCIL_EXPORT size_t pencil_device_get_stylus_count(const struct pencil_device *device)
{
	return device->stylus_count;
}

PENCIL_EXPORT const char *pencil_device_get_stylus_name(const struct pencil_device *device, size_t index)
{
	return index < device->stylus_count ? device->styli[index] : NULL;
}

PENCIL_EXPORT struct pencil_device *pencil_device_ref(struct pencil_device *device)
{
	device->refcount++;
	return device;
}

PENCIL_EXPORT struct pencil_device *pencil_device_unref(struct pencil_device *device)
{
	if (!device || --device->refcount > 0)
		return NULL;
	free(device->id);
	free(device->name);
	name_list_clear(&device->tools);
	name_list_clear(&device->axes);
	name_list_clear(&device->buttons);
	free(device->model);
	free(device->mirror);
	for (size_t i = 0; i < device->stylus_count; i++)
		free(device->styli[i]);
	free(device->styli);
	free(device);
	return NULL;
}

static bool name_list_has(const struct name_list *list, int value)
{
	for (size_t i = 0; i < list->count; i++)
		if (list->items[i].value == value && value > 0)
			return true;
	return false;
}

/* count, get (enum), get_name and has, for one of a device's lists. */
#define DEVICE_LIST(singular, list, type, table)                                                   \
	PENCIL_EXPORT size_t pencil_device_get_##singular##_count(const struct pencil_device *device) \
	{                                                                                          \
		return device->list.count;                                                         \
	}                                                                                          \
	PENCIL_EXPORT type pencil_device_get_##singular(const struct pencil_device *device, size_t index) \
	{                                                                                          \
		return index < device->list.count ? (type)device->list.items[index].value : (type)0;  \
	}                                                                                          \
	PENCIL_EXPORT const char *pencil_device_get_##singular##_name(const struct pencil_device *device, \
								      size_t index)                \
	{                                                                                          \
		return index < device->list.count ? name_text(&device->list.items[index], &table) : NULL; \
	}                                                                                          \
	PENCIL_EXPORT bool pencil_device_has_##singular(const struct pencil_device *device, type value) \
	{                                                                                          \
		return name_list_has(&device->list, (int)value);                                   \
	}

DEVICE_LIST(tool, tools, enum pencil_tool_type, tool_table)
DEVICE_LIST(axis, axes, enum pencil_axis, axis_table)
DEVICE_LIST(button, buttons, enum pencil_button, button_table)

PENCIL_EXPORT void pencil_device_list_free(struct pencil_device **devices, size_t count)
{
	if (!devices)
		return;
	for (size_t i = 0; i < count; i++)
		pencil_device_unref(devices[i]);
	free(devices);
}

/* ---- preferences ---- */

#define IGNORE_NAME(field, key, type, table)
#define IGNORE_FIELD(field, key)
#define UNSET_FIELD(field, key) preferences->field = -1;

PENCIL_EXPORT struct pencil_preferences *pencil_preferences_new(void)
{
	struct pencil_preferences *preferences = calloc(1, sizeof(*preferences));
	if (preferences) {
		PREFERENCE_FIELDS(IGNORE_NAME, UNSET_FIELD, IGNORE_FIELD, UNSET_FIELD)
	}
	return preferences;
}

#define CLEAR_NAME(field, key, type, table) name_clear(&preferences->field);

PENCIL_EXPORT void pencil_preferences_destroy(struct pencil_preferences *preferences)
{
	if (!preferences)
		return;
	PREFERENCE_FIELDS(CLEAR_NAME, IGNORE_FIELD, IGNORE_FIELD, IGNORE_FIELD)
	free(preferences);
}

/* The daemon's preferences hold every field (pencil.h promises each getter a value): a
 * missing one is a malformed message, as a mistyped one is. */
static int flag_decode(struct json_object *object, const char *key, int *out)
{
	struct json_object *value;
	if (!json_object_object_get_ex(object, key, &value) || !json_object_is_type(value, json_type_boolean))
		return -EBADMSG;
	*out = json_object_get_boolean(value) ? 1 : 0;
	return 0;
}

static int duration_decode(struct json_object *object, const char *key, int *out)
{
	int64_t value;
	if (json_int_field(object, key, &value) != 1 || value < 0 || value > 0x7fffffff)
		return -EBADMSG;
	*out = (int)value;
	return 0;
}

static int required_name_decode(struct json_object *object, const char *key, const struct name_table *table,
				struct name *name)
{
	int found = json_name_field(object, key, table, name);
	return found < 0 ? found : name->value == 0 ? -EBADMSG : 0;
}

static int number_decode(struct json_object *object, const char *key, bool *has, double *out)
{
	if (json_double_field(object, key, out) != 1)
		return -EBADMSG;
	*has = true;
	return 0;
}

#define DECODE_NAME(field, key, type, table)                                                       \
	if ((result = required_name_decode(object, key, &table, &preferences->field)) < 0)          \
		goto fail;
#define DECODE_INTEGER(field, key)                                                                 \
	if ((result = duration_decode(object, key, &preferences->field)) < 0)                       \
		goto fail;
#define DECODE_NUMBER(field, key)                                                                  \
	if ((result = number_decode(object, key, &preferences->has_##field, &preferences->field)) < 0) \
		goto fail;
#define DECODE_FLAG(field, key)                                                                    \
	if ((result = flag_decode(object, key, &preferences->field)) < 0)                           \
		goto fail;

int preferences_decode(struct json_object *object, struct pencil_preferences **out)
{
	int result = -EBADMSG;
	if (!json_object_is_type(object, json_type_object))
		return -EBADMSG;
	struct pencil_preferences *preferences = pencil_preferences_new();
	if (!preferences)
		return -ENOMEM;
	PREFERENCE_FIELDS(DECODE_NAME, DECODE_INTEGER, DECODE_NUMBER, DECODE_FLAG)
	*out = preferences;
	return 0;
fail:
	pencil_preferences_destroy(preferences);
	return result;
}

static int add_name(struct json_object *object, const char *key, const struct name *name,
		    const struct name_table *table)
{
	const char *text = name_text(name, table);
	if (!text)
		return 0;
	struct json_object *value = json_object_new_string(text);
	return value && json_object_object_add(object, key, value) == 0 ? 0 : -ENOMEM;
}

static int add_flag(struct json_object *object, const char *key, int value)
{
	if (value < 0)
		return 0;
	struct json_object *flag = json_object_new_boolean(value != 0);
	return flag && json_object_object_add(object, key, flag) == 0 ? 0 : -ENOMEM;
}

static int add_int(struct json_object *object, const char *key, int value)
{
	if (value < 0)
		return 0;
	struct json_object *number = json_object_new_int(value);
	return number && json_object_object_add(object, key, number) == 0 ? 0 : -ENOMEM;
}

static int add_number(struct json_object *object, const char *key, bool has, double value)
{
	if (!has)
		return 0;
	struct json_object *number = json_object_new_double(value);
	return number && json_object_object_add(object, key, number) == 0 ? 0 : -ENOMEM;
}

#define ENCODE_NAME(field, key, type, table)                                                       \
	if (add_name(object, key, &preferences->field, &table) < 0)                                 \
		goto fail;
#define ENCODE_INTEGER(field, key)                                                                 \
	if (add_int(object, key, preferences->field) < 0)                                           \
		goto fail;
#define ENCODE_NUMBER(field, key)                                                                  \
	if (add_number(object, key, preferences->has_##field, preferences->field) < 0)              \
		goto fail;
#define ENCODE_FLAG(field, key)                                                                    \
	if (add_flag(object, key, preferences->field) < 0)                                          \
		goto fail;

struct json_object *preferences_encode(const struct pencil_preferences *preferences)
{
	struct json_object *object = json_object_new_object();
	if (!object)
		return NULL;
	PREFERENCE_FIELDS(ENCODE_NAME, ENCODE_INTEGER, ENCODE_NUMBER, ENCODE_FLAG)
	return object;
fail:
	json_object_put(object);
	return NULL;
}

/* Getter and setters (by enum and by name) of an enum preference. */
#define PREFERENCE_NAME(field, type, table)                                                        \
	PENCIL_EXPORT type pencil_preferences_get_##field(const struct pencil_preferences *preferences) \
	{                                                                                          \
		return (type)preferences->field.value;                                              \
	}                                                                                          \
	PENCIL_EXPORT const char *pencil_preferences_get_##field##_name(                            \
		const struct pencil_preferences *preferences)                                       \
	{                                                                                          \
		return name_text(&preferences->field, &table);                                      \
	}                                                                                          \
	PENCIL_EXPORT int pencil_preferences_set_##field(struct pencil_preferences *preferences, type value) \
	{                                                                                          \
		if (!name_of(&table, (int)value))                                                  \
			return -EINVAL;                                                             \
		name_clear(&preferences->field);                                                    \
		preferences->field.value = (int)value;                                             \
		return 0;                                                                          \
	}                                                                                          \
	PENCIL_EXPORT int pencil_preferences_set_##field##_name(struct pencil_preferences *preferences, \
								const char *name)                  \
	{                                                                                          \
		if (!name || !*name)                                                               \
			return -EINVAL;                                                             \
		return name_set(&preferences->field, &table, name);                                 \
	}


#define PREFERENCE_FLAG(field)                                                                     \
	PENCIL_EXPORT int pencil_preferences_get_##field(const struct pencil_preferences *preferences) \
	{                                                                                          \
		return preferences->field;                                                          \
	}                                                                                          \
	PENCIL_EXPORT int pencil_preferences_set_##field(struct pencil_preferences *preferences, bool value) \
	{                                                                                          \
		preferences->field = value ? 1 : 0;                                                 \
		return 0;                                                                          \
	}


#define PREFERENCE_DURATION(field)                                                                 \
	PENCIL_EXPORT int pencil_preferences_get_##field(const struct pencil_preferences *preferences) \
	{                                                                                          \
		return preferences->field;                                                          \
	}                                                                                          \
	PENCIL_EXPORT int pencil_preferences_set_##field(struct pencil_preferences *preferences,    \
							 int milliseconds)                         \
	{                                                                                          \
		if (milliseconds < 0)                                                              \
			return -EINVAL;                                                             \
		preferences->field = milliseconds;                                                  \
		return 0;                                                                          \
	}

#define PREFERENCE_NUMBER(field)                                                                   \
	PENCIL_EXPORT bool pencil_preferences_has_##field(const struct pencil_preferences *preferences) \
	{                                                                                          \
		return preferences->has_##field;                                                    \
	}                                                                                          \
	PENCIL_EXPORT double pencil_preferences_get_##field(const struct pencil_preferences *preferences) \
	{                                                                                          \
		return preferences->has_##field ? preferences->field : 0;                           \
	}                                                                                          \
	PENCIL_EXPORT int pencil_preferences_set_##field(struct pencil_preferences *preferences, double value) \
	{                                                                                          \
		if (!isfinite(value))                                                              \
			return -EINVAL;                                                             \
		preferences->field = value;                                                         \
		preferences->has_##field = true;                                                    \
		return 0;                                                                          \
	}

#define PREFERENCE_ACCESSORS_NAME(field, key, type, table) PREFERENCE_NAME(field, type, table)
#define PREFERENCE_ACCESSORS_INTEGER(field, key) PREFERENCE_DURATION(field)
#define PREFERENCE_ACCESSORS_NUMBER(field, key) PREFERENCE_NUMBER(field)
#define PREFERENCE_ACCESSORS_FLAG(field, key) PREFERENCE_FLAG(field)
PREFERENCE_FIELDS(PREFERENCE_ACCESSORS_NAME, PREFERENCE_ACCESSORS_INTEGER, PREFERENCE_ACCESSORS_NUMBER,
		  PREFERENCE_ACCESSORS_FLAG)

/* ---- errors ---- */

struct pencil_error *error_new(enum pencil_error_kind kind, int code, const char *format, ...)
{
	struct pencil_error *error = calloc(1, sizeof(*error));
	if (!error)
		return NULL;
	error->kind = kind;
	error->code = code;
	va_list arguments;
	va_start(arguments, format);
	int length = vasprintf(&error->message, format, arguments);
	va_end(arguments);
	if (length < 0) {
		free(error);
		return NULL;
	}
	return error;
}

struct pencil_error *error_from_reply(const char *name, struct json_object *parameters)
{
	static const struct {
		const char *name;
		enum pencil_error_kind kind;
		int code;
	} known[] = {
		{"org.pencild.Pen.InvalidPreferences", PENCIL_ERROR_INVALID_PREFERENCES, -EINVAL},
		{"org.pencild.Pen.PermissionDenied", PENCIL_ERROR_PERMISSION_DENIED, -EACCES},
		{"org.pencild.Pen.NoSuchDevice", PENCIL_ERROR_NO_SUCH_DEVICE, -ENODEV},
		{"org.pencild.Pen.PreferencesNotSaved", PENCIL_ERROR_PREFERENCES_NOT_SAVED, -EIO},
		{"org.varlink.service.MethodNotFound", PENCIL_ERROR_METHOD_NOT_FOUND, -EOPNOTSUPP},
		{"org.pencild.Pen.TooManyClients", PENCIL_ERROR_TOO_MANY_CLIENTS, -EUSERS},
	};
	enum pencil_error_kind kind = PENCIL_ERROR_REMOTE;
	int code = -EREMOTEIO;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(known[i].name, name) == 0) {
			kind = known[i].kind;
			code = known[i].code;
		}
	const char *field = NULL, *reason = NULL, *device = NULL;
	if (parameters && json_object_is_type(parameters, json_type_object)) {
		json_string_field(parameters, "field", &field);
		json_string_field(parameters, "reason", &reason);
		json_string_field(parameters, "device", &device);
	}
	struct pencil_error *error;
	int64_t limit = 0;
	struct json_object *per_user = NULL;
	if (kind == PENCIL_ERROR_TOO_MANY_CLIENTS && parameters && json_object_is_type(parameters, json_type_object) &&
	    json_int_field(parameters, "limit", &limit) == 1) {
		bool user = json_object_object_get_ex(parameters, "perUser", &per_user) && json_object_get_boolean(per_user);
		error = error_new(kind, code, "%s: pencild already serves as many clients as it may (%lld %s)", name,
				  (long long)limit, user ? "per user" : "in all");
	} else if (field && reason)
		error = error_new(kind, code, "%s: %s", field, reason);
	else if (device)
		error = error_new(kind, code, "%s: %s", name, device);
	else if (reason)
		error = error_new(kind, code, "%s: %s", name, reason);
	else
		error = error_new(kind, code, "%s", name);
	if (!error)
		return NULL;
	error->name = strdup(name);
	error->field = strdup_or_null(field);
	error->reason = strdup_or_null(reason);
	error->device = strdup_or_null(device);
	if (!error->name || (field && !error->field) || (reason && !error->reason) || (device && !error->device)) {
		pencil_error_destroy(error);
		return NULL;
	}
	return error;
}

int error_give(struct pencil_error *error, struct pencil_error **out, int code_if_null)
{
	if (!error)
		return code_if_null;
	int code = error->code;
	if (out)
		*out = error;
	else
		pencil_error_destroy(error);
	return code;
}

PENCIL_EXPORT enum pencil_error_kind pencil_error_get_kind(const struct pencil_error *error)
{
	return error->kind;
}

PENCIL_EXPORT int pencil_error_get_code(const struct pencil_error *error)
{
	return error->code;
}

PENCIL_EXPORT const char *pencil_error_get_name(const struct pencil_error *error)
{
	return error->name;
}

PENCIL_EXPORT const char *pencil_error_get_field(const struct pencil_error *error)
{
	return error->field;
}

PENCIL_EXPORT const char *pencil_error_get_reason(const struct pencil_error *error)
{
	return error->reason;
}

PENCIL_EXPORT const char *pencil_error_get_device(const struct pencil_error *error)
{
	return error->device;
}

PENCIL_EXPORT const char *pencil_error_get_message(const struct pencil_error *error)
{
	return error->message;
}

PENCIL_EXPORT void pencil_error_destroy(struct pencil_error *error)
{
	if (!error)
		return;
	free(error->name);
	free(error->field);
	free(error->reason);
	free(error->device);
	free(error->message);
	free(error);
}

/* ---- events ---- */

struct pencil_event *event_new(void)
{
	return calloc(1, sizeof(struct pencil_event));
}

static void stylus_clear(struct stylus *stylus)
{
	free(stylus->name);
	stylus->name = NULL;
	name_clear(&stylus->kind);
	name_clear(&stylus->eraser);
	stylus->buttons = 0;
}

static int stylus_decode(struct json_object *object, struct stylus *stylus)
{
	const char *name, *kind, *eraser;
	int64_t buttons;
	int result;
	if (!json_object_is_type(object, json_type_object) || json_string_field(object, "name", &name) != 1 ||
	    json_string_field(object, "kind", &kind) != 1 || json_string_field(object, "eraser", &eraser) != 1 ||
	    json_int_field(object, "buttons", &buttons) != 1 || buttons < 0 || buttons > 64)
		return -EBADMSG;
	stylus->buttons = (int)buttons;
	if ((result = name_set(&stylus->kind, &stylus_kind_table, kind)) < 0 ||
	    (result = name_set(&stylus->eraser, &eraser_kind_table, eraser)) < 0)
		return result;
	return (stylus->name = strdup(name)) ? 0 : -ENOMEM;
}

PENCIL_EXPORT bool pencil_event_has_stylus(const struct pencil_event *event)
{
	return event->has_stylus;
}

PENCIL_EXPORT const char *pencil_event_get_stylus_name(const struct pencil_event *event)
{
	return event->has_stylus ? event->stylus.name : NULL;
}

PENCIL_EXPORT enum pencil_stylus_kind pencil_event_get_stylus_kind(const struct pencil_event *event)
{
	return event->has_stylus ? (enum pencil_stylus_kind)event->stylus.kind.value : PENCIL_STYLUS_KIND_NONE;
}

PENCIL_EXPORT const char *pencil_event_get_stylus_kind_name(const struct pencil_event *event)
{
	return event->has_stylus ? name_text(&event->stylus.kind, &stylus_kind_table) : NULL;
}

PENCIL_EXPORT int pencil_event_get_stylus_buttons(const struct pencil_event *event)
{
	return event->has_stylus ? event->stylus.buttons : 0;
}

PENCIL_EXPORT enum pencil_eraser_kind pencil_event_get_stylus_eraser(const struct pencil_event *event)
{
	return event->has_stylus ? (enum pencil_eraser_kind)event->stylus.eraser.value : PENCIL_ERASER_KIND_UNSET;
}

PENCIL_EXPORT const char *pencil_event_get_stylus_eraser_name(const struct pencil_event *event)
{
	return event->has_stylus ? name_text(&event->stylus.eraser, &eraser_kind_table) : NULL;
}

int event_decode(struct json_object *object, struct pencil_event **out)
{
	const char *type, *device;
	struct json_object *value;
	int result = -EBADMSG;

	if (!json_object_is_type(object, json_type_object))
		return -EBADMSG;
	struct pencil_event *event = event_new();
	if (!event)
		return -ENOMEM;
	if (json_string_field(object, "type", &type) != 1 || json_int_field(object, "time", &event->time) != 1)
		goto fail;
	if ((result = name_set(&event->type, &event_type_table, type)) < 0)
		goto fail;
	result = -EBADMSG;
	if (json_string_field(object, "device", &device) < 0)
		goto fail;
	if (device && !(event->device = strdup(device))) {
		result = -ENOMEM;
		goto fail;
	}
	if (json_object_object_get_ex(object, "tool", &value) && value) {
		event->has_tool = true;
		if ((result = tool_decode(value, &event->tool)) < 0)
			goto fail;
	}
	if (json_object_object_get_ex(object, "stylus", &value) && value) {
		event->has_stylus = true;
		if ((result = stylus_decode(value, &event->stylus)) < 0)
			goto fail;
	}
	if (json_object_object_get_ex(object, "pose", &value) && value) {
		event->has_pose = true;
		if ((result = pose_decode(value, &event->pose)) < 0)
			goto fail;
	}
	if ((result = json_name_field(object, "button", &button_table, &event->button)) < 0 ||
	    (result = json_name_field(object, "phase", &phase_table, &event->phase)) < 0 ||
	    (result = json_name_field(object, "action", &action_table, &event->action)) < 0 ||
	    (result = json_name_field(object, "focus", &focus_table, &event->focus)) < 0)
		goto fail;
	if (json_object_object_get_ex(object, "deviceInfo", &value) && value &&
	    (result = device_decode(value, &event->device_info)) < 0)
		goto fail;
	if (json_object_object_get_ex(object, "preferences", &value) && value &&
	    (result = preferences_decode(value, &event->preferences)) < 0)
		goto fail;
	*out = event;
	return 0;
fail:
	pencil_event_destroy(event);
	return result;
}

PENCIL_EXPORT void pencil_event_destroy(struct pencil_event *event)
{
	if (!event)
		return;
	name_clear(&event->type);
	free(event->device);
	tool_clear(&event->tool);
	stylus_clear(&event->stylus);
	name_clear(&event->button);
	name_clear(&event->phase);
	name_clear(&event->action);
	name_clear(&event->focus);
	pencil_device_unref(event->device_info);
	pencil_preferences_destroy(event->preferences);
	pencil_error_destroy(event->error);
	free(event);
}

PENCIL_EXPORT enum pencil_event_type pencil_event_get_type(const struct pencil_event *event)
{
	return (enum pencil_event_type)event->type.value;
}

PENCIL_EXPORT const char *pencil_event_get_type_name(const struct pencil_event *event)
{
	if (event->type.value == PENCIL_EVENT_DISCONNECTED)
		return "disconnected";
	return name_text(&event->type, &event_type_table);
}

PENCIL_EXPORT int64_t pencil_event_get_time_usec(const struct pencil_event *event)
{
	return event->time;
}

PENCIL_EXPORT const char *pencil_event_get_device(const struct pencil_event *event)
{
	return event->device;
}

PENCIL_EXPORT bool pencil_event_is_synthesized(const struct pencil_event *event)
{
	return event->synthesized;
}

PENCIL_EXPORT bool pencil_event_is_synthetic(const struct pencil_event *event)
{
	return event->synthesized;
}

PENCIL_EXPORT struct pencil_device *pencil_event_get_device_info(const struct pencil_event *event)
{
	return event->device_info;
}

PENCIL_EXPORT const struct pencil_preferences *pencil_event_get_preferences(const struct pencil_event *event)
{
	return event->preferences;
}

PENCIL_EXPORT const struct pencil_error *pencil_event_get_error(const struct pencil_event *event)
{
	return event->error;
}

PENCIL_EXPORT bool pencil_event_has_tool(const struct pencil_event *event)
{
	return event->has_tool;
}

PENCIL_EXPORT enum pencil_tool_type pencil_event_get_tool_type(const struct pencil_event *event)
{
	return (enum pencil_tool_type)event->tool.type.value;
}

PENCIL_EXPORT const char *pencil_event_get_tool_type_name(const struct pencil_event *event)
{
	return name_text(&event->tool.type, &tool_table);
}

PENCIL_EXPORT int64_t pencil_event_get_tool_serial(const struct pencil_event *event)
{
	return event->tool.serial;
}

PENCIL_EXPORT int64_t pencil_event_get_tool_id(const struct pencil_event *event)
{
	return event->tool.id;
}

PENCIL_EXPORT bool pencil_event_has_pose(const struct pencil_event *event)
{
	return event->has_pose;
}

static double pose_value(const struct pencil_event *event, enum pose_field field)
{
	return event->pose.present & (1u << field) ? event->pose.values[field] : 0;
}

PENCIL_EXPORT double pencil_event_get_x(const struct pencil_event *event)
{
	return pose_value(event, POSE_X);
}

PENCIL_EXPORT double pencil_event_get_y(const struct pencil_event *event)
{
	return pose_value(event, POSE_Y);
}

PENCIL_EXPORT double pencil_event_get_pressure(const struct pencil_event *event)
{
	return pose_value(event, POSE_PRESSURE);
}

#define POSE_OPTIONAL(name, field)                                                                 \
	PENCIL_EXPORT bool pencil_event_has_##name(const struct pencil_event *event)                 \
	{                                                                                          \
		return (event->pose.present & (1u << field)) != 0;                                  \
	}                                                                                          \
	PENCIL_EXPORT double pencil_event_get_##name(const struct pencil_event *event)              \
	{                                                                                          \
		return pose_value(event, field);                                                    \
	}

POSE_OPTIONAL(x_mm, POSE_X_MM)
POSE_OPTIONAL(y_mm, POSE_Y_MM)
POSE_OPTIONAL(z_offset, POSE_Z_OFFSET)
POSE_OPTIONAL(tilt_x, POSE_TILT_X)
POSE_OPTIONAL(tilt_y, POSE_TILT_Y)
POSE_OPTIONAL(azimuth, POSE_AZIMUTH)
POSE_OPTIONAL(altitude, POSE_ALTITUDE)
POSE_OPTIONAL(roll, POSE_ROLL)
POSE_OPTIONAL(slider, POSE_SLIDER)
POSE_OPTIONAL(wheel, POSE_WHEEL)

#define EVENT_NAME(field, type, table)                                                             \
	PENCIL_EXPORT type pencil_event_get_##field(const struct pencil_event *event)               \
	{                                                                                          \
		return (type)event->field.value;                                                    \
	}                                                                                          \
	PENCIL_EXPORT const char *pencil_event_get_##field##_name(const struct pencil_event *event) \
	{                                                                                          \
		return name_text(&event->field, &table);                                            \
	}

EVENT_NAME(button, enum pencil_button, button_table)
EVENT_NAME(phase, enum pencil_phase, phase_table)
EVENT_NAME(action, enum pencil_action, action_table)
EVENT_NAME(focus, enum pencil_focus, focus_table)
