/*
 * pencil-calls: libpencil's synchronous calls and typed errors against a running pencild
 * ($PENCILD_SOCKET) replaying one pen (replay0) with the user's preferences at their
 * defaults. Prints "ok: ..." per check and exits 1 when one fails. With --not-saved: only
 * the error of a daemon that cannot store preferences; with --denied, run as a user who
 * may not connect, only PermissionDenied; with --too-many, against a daemon that serves
 * one client per user, only TooManyClients.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pencil.h"

static int failures;

static void check(bool condition, const char *what)
{
	printf("%s: %s\n", condition ? "ok" : "FAIL", what);
	failures += !condition;
}

static bool text_is(const char *text, const char *expected)
{
	return text && strcmp(text, expected) == 0;
}

/* Waits (at most 5 s) for the next event of the stream; NULL when none came. */
static struct pencil_event *next_event(struct pencil *pencil)
{
	struct pollfd fd = {.fd = pencil_get_fd(pencil), .events = POLLIN};
	for (int rounds = 0; rounds < 100; rounds++) {
		struct pencil_event *event = pencil_get_event(pencil);
		if (event)
			return event;
		if (poll(&fd, 1, 50) < 0 || pencil_dispatch(pencil) < 0)
			return NULL;
	}
	return NULL;
}

static void devices(struct pencil *pencil)
{
	struct pencil_device **list = NULL;
	size_t count = 0;
	int result = pencil_list_devices(pencil, &list, &count, NULL);
	check(result == 1 && count == 1, "ListDevices: one device");
	if (result == 1) {
		struct pencil_device *device = list[0];
		check(text_is(pencil_device_get_id(device), "replay0"), "its id is replay0");
		check(text_is(pencil_device_get_name(device), "Calls Test Pen"), "its name is the recording's");
		/* The project's test pen is an Intuos5 touch M (pencil-test-recordings --client-pen). */
		check(pencil_device_get_vendor(device) == 0x56a && pencil_device_get_product(device) == 0x27,
		      "vendor and product");
		check(pencil_device_has_tool(device, PENCIL_TOOL_PEN) && pencil_device_has_axis(device, PENCIL_AXIS_PRESSURE) &&
			      pencil_device_has_button(device, PENCIL_BUTTON_STYLUS2),
		      "tools, axes and buttons");
		check(pencil_device_has_size(device) && pencil_device_get_width_mm(device) > 200 &&
			      pencil_device_get_width_mm(device) < 250,
		      "its width in millimetres");
	}
	pencil_device_list_free(list, count);
}

static void preferences(struct pencil *pencil)
{
	struct pencil_preferences *current = NULL, *result = NULL;
	struct pencil_error *error = NULL;

	check(pencil_get_preferences(pencil, &current, NULL) == 0, "GetPreferences");
	if (!current)
		return;
	check(pencil_preferences_get_double_tap_action(current) == PENCIL_ACTION_SWITCH_ERASER &&
		      pencil_preferences_get_squeeze_action(current) == PENCIL_ACTION_SHOW_CONTEXTUAL_PALETTE &&
		      pencil_preferences_get_tap_button(current) == PENCIL_GESTURE_BUTTON_STYLUS &&
		      pencil_preferences_get_squeeze_button(current) == PENCIL_GESTURE_BUTTON_STYLUS2 &&
		      pencil_preferences_get_tap_max_duration(current) == 300 &&
		      pencil_preferences_get_double_tap_interval(current) == 400 &&
		      pencil_preferences_get_long_press_duration(current) == 500 &&
		      pencil_preferences_get_double_tap_slop(current) == 4.0,
	      "the defaults of docs/gestures.md");
	pencil_preferences_destroy(current);

	/* A subscriber to preferencesChanged sees the change. */
	struct pencil *watcher = pencil_new();
	const char *types[] = {"preferencesChanged", NULL};
	pencil_set_reconnect(watcher, false);
	check(pencil_monitor(watcher, NULL, types) == 0, "Monitor for preferencesChanged");

	struct pencil_preferences *changes = pencil_preferences_new();
	pencil_preferences_set_double_tap_action(changes, PENCIL_ACTION_SHOW_COLOR_PALETTE);
	pencil_preferences_set_squeeze_button(changes, PENCIL_GESTURE_BUTTON_LONG_PRESS);
	pencil_preferences_set_long_press_duration(changes, 650);
	pencil_preferences_set_double_tap_slop(changes, 2.5);
	int status = pencil_set_preferences(pencil, changes, &result, &error);
	check(status == 0 && result, "SetPreferences with four fields");
	if (result) {
		check(pencil_preferences_get_double_tap_action(result) == PENCIL_ACTION_SHOW_COLOR_PALETTE &&
			      pencil_preferences_get_squeeze_button(result) == PENCIL_GESTURE_BUTTON_LONG_PRESS &&
			      pencil_preferences_get_long_press_duration(result) == 650 &&
			      pencil_preferences_get_double_tap_slop(result) == 2.5,
		      "its reply has the new values");
		check(pencil_preferences_get_squeeze_action(result) == PENCIL_ACTION_SHOW_CONTEXTUAL_PALETTE &&
			      pencil_preferences_get_tap_max_duration(result) == 300,
		      "and the fields left out as they were");
		pencil_preferences_destroy(result);
	}
	pencil_error_destroy(error);
	pencil_preferences_destroy(changes);

	/* The four preferences added with stylus identity and the mirror, and the eraser button. */
	check(pencil_get_preferences(pencil, &current, NULL) == 0 && current &&
		      pencil_preferences_get_withhold_gesture_clicks(current) == 1 &&
		      pencil_preferences_get_mirror_switches_tool(current) == 1 &&
		      pencil_preferences_get_eraser_button(current) == PENCIL_ERASER_BUTTON_ERASER &&
		      pencil_preferences_get_prefers_pencil_only_drawing(current) == 0 &&
		      pencil_preferences_get_prefers_hover_tool_preview(current) == 1,
	      "the new preferences have their defaults");
	pencil_preferences_destroy(current);
	changes = pencil_preferences_new();
	check(pencil_preferences_get_withhold_gesture_clicks(changes) == -1, "a new preferences object sets no flag");
	pencil_preferences_set_withhold_gesture_clicks(changes, false);
	pencil_preferences_set_mirror_switches_tool(changes, false);
	pencil_preferences_set_eraser_button(changes, PENCIL_ERASER_BUTTON_BUTTON);
	pencil_preferences_set_prefers_pencil_only_drawing(changes, true);
	pencil_preferences_set_prefers_hover_tool_preview(changes, false);
	result = NULL;
	check(pencil_set_preferences(pencil, changes, &result, NULL) == 0 && result &&
		      pencil_preferences_get_withhold_gesture_clicks(result) == 0 &&
		      pencil_preferences_get_mirror_switches_tool(result) == 0 &&
		      text_is(pencil_preferences_get_eraser_button_name(result), "button") &&
		      pencil_preferences_get_prefers_pencil_only_drawing(result) == 1 &&
		      pencil_preferences_get_prefers_hover_tool_preview(result) == 0,
	      "SetPreferences with the new fields");
	pencil_preferences_destroy(result);
	pencil_preferences_set_tap_button(changes, PENCIL_GESTURE_BUTTON_ERASER);
	check(text_is(pencil_preferences_get_tap_button_name(changes), "eraser"), "tapButton eraser by its name");
	pencil_preferences_destroy(changes);

	current = NULL;
	check(pencil_get_preferences(pencil, &current, NULL) == 0 && current &&
		      pencil_preferences_get_eraser_button(current) == PENCIL_ERASER_BUTTON_BUTTON &&
		      pencil_preferences_get_prefers_hover_tool_preview(current) == 0 &&
		      text_is(pencil_preferences_get_double_tap_action_name(current), "showColorPalette") &&
		      text_is(pencil_preferences_get_squeeze_button_name(current), "longPress") &&
		      pencil_preferences_get_long_press_duration(current) == 650,
	      "GetPreferences returns them (round trip)");
	pencil_preferences_destroy(current);

	struct pencil_event *event = next_event(watcher);
	check(event && pencil_event_get_type(event) == PENCIL_EVENT_PREFERENCES_CHANGED && pencil_event_get_preferences(event) &&
		      pencil_preferences_get_long_press_duration(pencil_event_get_preferences(event)) == 650,
	      "the subscriber receives preferencesChanged with them");
	pencil_event_destroy(event);
	pencil_unref(watcher);

	/* Invalid values: the daemon's InvalidPreferences, typed, with field and reason. */
	changes = pencil_preferences_new();
	pencil_preferences_set_long_press_duration(changes, 0);
	error = NULL;
	status = pencil_set_preferences(pencil, changes, NULL, &error);
	check(status == -EINVAL && error && pencil_error_get_kind(error) == PENCIL_ERROR_INVALID_PREFERENCES &&
		      pencil_error_get_code(error) == -EINVAL &&
		      text_is(pencil_error_get_name(error), "org.pencild.Pen.InvalidPreferences") &&
		      text_is(pencil_error_get_field(error), "longPressDuration") && pencil_error_get_reason(error) &&
		      strlen(pencil_error_get_reason(error)) > 0,
	      "longPressDuration 0: -EINVAL, InvalidPreferences, field longPressDuration, a reason");
	if (error)
		printf("    (%s)\n", pencil_error_get_message(error));
	pencil_error_destroy(error);
	pencil_preferences_destroy(changes);

	changes = pencil_preferences_new();
	check(pencil_preferences_set_double_tap_action_name(changes, "frobnicate") == 0 &&
		      pencil_preferences_get_double_tap_action(changes) == PENCIL_ACTION_UNKNOWN,
	      "an action this library does not know can be set by name");
	error = NULL;
	status = pencil_set_preferences(pencil, changes, NULL, &error);
	check(status == -EINVAL && error && text_is(pencil_error_get_field(error), "doubleTapAction"),
	      "which the daemon refuses: InvalidPreferences, field doubleTapAction");
	pencil_error_destroy(error);
	pencil_preferences_destroy(changes);

	changes = pencil_preferences_new();
	check(pencil_preferences_set_tap_button(changes, PENCIL_GESTURE_BUTTON_UNKNOWN) == -EINVAL &&
		      pencil_preferences_set_long_press_duration(changes, -1) == -EINVAL,
	      "setters refuse UNKNOWN and negative durations");
	pencil_preferences_set_tap_button(changes, PENCIL_GESTURE_BUTTON_STYLUS2);
	pencil_preferences_set_squeeze_button(changes, PENCIL_GESTURE_BUTTON_STYLUS2);
	error = NULL;
	status = pencil_set_preferences(pencil, changes, NULL, &error);
	check(status == -EINVAL && error && pencil_error_get_field(error), "tapButton and squeezeButton the same: InvalidPreferences");
	pencil_error_destroy(error);
	pencil_preferences_destroy(changes);

	current = NULL;
	check(pencil_get_preferences(pencil, &current, NULL) == 0 && current &&
		      pencil_preferences_get_long_press_duration(current) == 650 &&
		      pencil_preferences_get_tap_button(current) == PENCIL_GESTURE_BUTTON_STYLUS,
	      "refused changes changed nothing");
	pencil_preferences_destroy(current);
}

static void errors(struct pencil *pencil)
{
	/* A device filter naming no attached device: the stream ends with NoSuchDevice. */
	struct pencil *monitor = pencil_new();
	const char *devices[] = {"event99", NULL};
	pencil_set_reconnect(monitor, false);
	check(pencil_monitor(monitor, devices, NULL) == 0, "Monitor for event99 is sent");
	struct pencil_event *event = next_event(monitor);
	const struct pencil_error *error = event ? pencil_event_get_error(event) : NULL;
	check(event && pencil_event_get_type(event) == PENCIL_EVENT_DISCONNECTED && error &&
		      pencil_error_get_kind(error) == PENCIL_ERROR_NO_SUCH_DEVICE && pencil_error_get_code(error) == -ENODEV &&
		      text_is(pencil_error_get_device(error), "event99"),
	      "then DISCONNECTED with NoSuchDevice(event99)");
	pencil_event_destroy(event);
	pencil_unref(monitor);

	const char *empty[] = {"", NULL};
	check(pencil_monitor(pencil, NULL, empty) == -EINVAL, "an empty filter entry is -EINVAL");

	/* No daemon at all. */
	struct pencil *nobody = pencil_new_from_path("/nonexistent/pencild.sock");
	struct pencil_error *call_error = NULL;
	struct pencil_device **list;
	size_t count;
	int result = pencil_list_devices(nobody, &list, &count, &call_error);
	check(result == -ENOENT && call_error && pencil_error_get_kind(call_error) == PENCIL_ERROR_CONNECTION &&
		      strstr(pencil_error_get_message(call_error), "/nonexistent/pencild.sock"),
	      "no daemon: -ENOENT, a connection error naming the socket");
	pencil_error_destroy(call_error);
	pencil_set_reconnect(nobody, false);
	check(pencil_monitor(nobody, NULL, NULL) == -ENOENT && !pencil_is_connected(nobody),
	      "Monitor without a daemon: -ENOENT");
	pencil_unref(nobody);
}

/* The daemon cannot store preferences (its state folder is gone): PreferencesNotSaved. */
static void not_saved(struct pencil *pencil)
{
	struct pencil_preferences *changes = pencil_preferences_new();
	struct pencil_error *error = NULL;
	pencil_preferences_set_tap_max_duration(changes, 250);
	int status = pencil_set_preferences(pencil, changes, NULL, &error);
	check(status == -EIO && error && pencil_error_get_kind(error) == PENCIL_ERROR_PREFERENCES_NOT_SAVED &&
		      text_is(pencil_error_get_name(error), "org.pencild.Pen.PreferencesNotSaved") &&
		      pencil_error_get_reason(error) && strlen(pencil_error_get_reason(error)) > 0,
	      "an unwritable state folder: -EIO, PreferencesNotSaved with a reason");
	if (error)
		printf("    (%s)\n", pencil_error_get_message(error));
	pencil_error_destroy(error);
	pencil_preferences_destroy(changes);
}

/* Run as a user who may not use the daemon: PermissionDenied, typed. */
static void denied(struct pencil *pencil)
{
	struct pencil_device **list = NULL;
	size_t count = 0;
	struct pencil_error *error = NULL;
	int result = pencil_list_devices(pencil, &list, &count, &error);
	if (error)
		printf("    (%d: %s)\n", result, pencil_error_get_message(error));
	check(result == -EACCES && error && pencil_error_get_kind(error) == PENCIL_ERROR_PERMISSION_DENIED &&
		      text_is(pencil_error_get_name(error), "org.pencild.Pen.PermissionDenied"),
	      "a user without access: -EACCES, PermissionDenied");
	pencil_error_destroy(error);
	if (result >= 0)
		pencil_device_list_free(list, count);

	pencil_set_reconnect(pencil, false);
	pencil_monitor(pencil, NULL, NULL);
	struct pencil_event *event = next_event(pencil);
	const struct pencil_error *reason = event ? pencil_event_get_error(event) : NULL;
	check(event && pencil_event_get_type(event) == PENCIL_EVENT_DISCONNECTED && reason &&
		      pencil_error_get_kind(reason) == PENCIL_ERROR_PERMISSION_DENIED,
	      "and its event stream ends at once: DISCONNECTED with PermissionDenied");
	pencil_event_destroy(event);
}

/* A daemon that serves one client of this user, which the event stream is. */
static void too_many(struct pencil *pencil)
{
	pencil_set_reconnect(pencil, false);
	check(pencil_monitor(pencil, NULL, NULL) == 0, "the one connection allowed: Monitor");
	struct pencil_event *event = next_event(pencil);
	check(event && pencil_event_get_type(event) == PENCIL_EVENT_DEVICE_ADDED, "which streams");
	pencil_event_destroy(event);
	struct pencil_preferences *preferences = NULL;
	struct pencil_error *error = NULL;
	int result = pencil_get_preferences(pencil, &preferences, &error);
	check(result == -EUSERS && error && pencil_error_get_kind(error) == PENCIL_ERROR_TOO_MANY_CLIENTS &&
		      strstr(pencil_error_get_message(error), "(1 per user)"),
	      "a second one: -EUSERS, TooManyClients, per user");
	if (error)
		printf("    (%s)\n", pencil_error_get_message(error));
	pencil_error_destroy(error);
	pencil_preferences_destroy(preferences);
}

int main(int argc, char **argv)
{
	struct pencil *pencil = pencil_new();
	if (!pencil)
		return 1;
	if (argc > 1) {
		if (strcmp(argv[1], "--denied") == 0)
			denied(pencil);
		else if (strcmp(argv[1], "--too-many") == 0)
			too_many(pencil);
		else
			not_saved(pencil);
		pencil_unref(pencil);
		return failures ? 1 : 0;
	}
	devices(pencil);
	preferences(pencil);
	errors(pencil);
	pencil_unref(pencil);
	if (failures)
		printf("%d checks failed\n", failures);
	return failures ? 1 : 0;
}
