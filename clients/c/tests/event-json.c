/*
 * An event as JSON, built from libpencil's accessors only: the form `pencilctl events`
 * prints, plus "focus" and "synthesized" where they apply. pencil-events prints it;
 * test-contract compares its part the contract's cases name.
 */
#include <json-c/json.h>

#include "event-json.h"

static void add(struct json_object *object, const char *key, struct json_object *value)
{
	json_object_object_add(object, key, value);
}

static struct json_object *names(size_t count, const char *(*name)(const struct pencil_device *, size_t),
				 const struct pencil_device *device)
{
	struct json_object *array = json_object_new_array();
	for (size_t i = 0; i < count; i++)
		json_object_array_add(array, json_object_new_string(name(device, i)));
	return array;
}

static struct json_object *device_json(const struct pencil_device *device)
{
	struct json_object *object = json_object_new_object();
	add(object, "id", json_object_new_string(pencil_device_get_id(device)));
	add(object, "name", json_object_new_string(pencil_device_get_name(device)));
	add(object, "bus", json_object_new_int(pencil_device_get_bus(device)));
	add(object, "vendor", json_object_new_int(pencil_device_get_vendor(device)));
	add(object, "product", json_object_new_int(pencil_device_get_product(device)));
	add(object, "direct", json_object_new_boolean(pencil_device_is_direct(device)));
	if (pencil_device_has_size(device)) {
		add(object, "widthMillimeters", json_object_new_double(pencil_device_get_width_mm(device)));
		add(object, "heightMillimeters", json_object_new_double(pencil_device_get_height_mm(device)));
	}
	add(object, "tools", names(pencil_device_get_tool_count(device), pencil_device_get_tool_name, device));
	add(object, "axes", names(pencil_device_get_axis_count(device), pencil_device_get_axis_name, device));
	add(object, "buttons", names(pencil_device_get_button_count(device), pencil_device_get_button_name, device));
	if (pencil_device_get_model(device))
		add(object, "model", json_object_new_string(pencil_device_get_model(device)));
	if (pencil_device_get_mirror(device))
		add(object, "mirror", json_object_new_string(pencil_device_get_mirror(device)));
	return object;
}

static struct json_object *preferences_json(const struct pencil_preferences *preferences)
{
	struct json_object *object = json_object_new_object();
	add(object, "doubleTapAction", json_object_new_string(pencil_preferences_get_double_tap_action_name(preferences)));
	add(object, "squeezeAction", json_object_new_string(pencil_preferences_get_squeeze_action_name(preferences)));
	add(object, "tapButton", json_object_new_string(pencil_preferences_get_tap_button_name(preferences)));
	add(object, "squeezeButton", json_object_new_string(pencil_preferences_get_squeeze_button_name(preferences)));
	add(object, "tapMaxDuration", json_object_new_int(pencil_preferences_get_tap_max_duration(preferences)));
	add(object, "doubleTapInterval", json_object_new_int(pencil_preferences_get_double_tap_interval(preferences)));
	add(object, "longPressDuration", json_object_new_int(pencil_preferences_get_long_press_duration(preferences)));
	add(object, "doubleTapSlop", json_object_new_double(pencil_preferences_get_double_tap_slop(preferences)));
	if (pencil_preferences_get_withhold_gesture_clicks(preferences) >= 0)
		add(object, "withholdGestureClicks", json_object_new_boolean(pencil_preferences_get_withhold_gesture_clicks(preferences)));
	if (pencil_preferences_get_eraser_button_name(preferences))
		add(object, "eraserButton", json_object_new_string(pencil_preferences_get_eraser_button_name(preferences)));
	if (pencil_preferences_get_prefers_pencil_only_drawing(preferences) >= 0)
		add(object, "prefersPencilOnlyDrawing",
		    json_object_new_boolean(pencil_preferences_get_prefers_pencil_only_drawing(preferences)));
	if (pencil_preferences_get_prefers_hover_tool_preview(preferences) >= 0)
		add(object, "prefersHoverToolPreview",
		    json_object_new_boolean(pencil_preferences_get_prefers_hover_tool_preview(preferences)));
	if (pencil_preferences_get_mirror_switches_tool(preferences) >= 0)
		add(object, "mirrorSwitchesTool", json_object_new_boolean(pencil_preferences_get_mirror_switches_tool(preferences)));
	return object;
}

#define OPTIONAL(key, name)                                                              \
	if (pencil_event_has_##name(event))                                              \
		add(pose, key, json_object_new_double(pencil_event_get_##name(event)));

struct json_object *event_json(const struct pencil_event *event)
{
	struct json_object *object = json_object_new_object();
	add(object, "type", json_object_new_string(pencil_event_get_type_name(event)));
	add(object, "time", json_object_new_int64(pencil_event_get_time_usec(event)));
	if (pencil_event_get_device(event))
		add(object, "device", json_object_new_string(pencil_event_get_device(event)));
	if (pencil_event_get_device_info(event))
		add(object, "deviceInfo", device_json(pencil_event_get_device_info(event)));
	if (pencil_event_has_tool(event)) {
		struct json_object *tool = json_object_new_object();
		add(tool, "type", json_object_new_string(pencil_event_get_tool_type_name(event)));
		add(tool, "serial", json_object_new_int64(pencil_event_get_tool_serial(event)));
		add(tool, "id", json_object_new_int64(pencil_event_get_tool_id(event)));
		add(object, "tool", tool);
	}
	if (pencil_event_has_stylus(event)) {
		struct json_object *stylus = json_object_new_object();
		add(stylus, "name", json_object_new_string(pencil_event_get_stylus_name(event)));
		add(stylus, "kind", json_object_new_string(pencil_event_get_stylus_kind_name(event)));
		add(stylus, "buttons", json_object_new_int(pencil_event_get_stylus_buttons(event)));
		add(stylus, "eraser", json_object_new_string(pencil_event_get_stylus_eraser_name(event)));
		add(object, "stylus", stylus);
	}
	if (pencil_event_has_pose(event)) {
		struct json_object *pose = json_object_new_object();
		add(pose, "x", json_object_new_double(pencil_event_get_x(event)));
		add(pose, "y", json_object_new_double(pencil_event_get_y(event)));
		OPTIONAL("xMillimeters", x_mm)
		OPTIONAL("yMillimeters", y_mm)
		add(pose, "pressure", json_object_new_double(pencil_event_get_pressure(event)));
		OPTIONAL("zOffset", z_offset)
		OPTIONAL("tiltX", tilt_x)
		OPTIONAL("tiltY", tilt_y)
		OPTIONAL("azimuth", azimuth)
		OPTIONAL("altitude", altitude)
		OPTIONAL("roll", roll)
		OPTIONAL("slider", slider)
		OPTIONAL("wheel", wheel)
		add(object, "pose", pose);
	}
	if (pencil_event_get_button(event) != PENCIL_BUTTON_NONE)
		add(object, "button", json_object_new_string(pencil_event_get_button_name(event)));
	if (pencil_event_get_phase(event) != PENCIL_PHASE_NONE)
		add(object, "phase", json_object_new_string(pencil_event_get_phase_name(event)));
	if (pencil_event_get_action(event) != PENCIL_ACTION_NONE)
		add(object, "action", json_object_new_string(pencil_event_get_action_name(event)));
	if (pencil_event_get_focus(event) != PENCIL_FOCUS_UNSET)
		add(object, "focus", json_object_new_string(pencil_event_get_focus_name(event)));
	if (pencil_event_get_preferences(event))
		add(object, "preferences", preferences_json(pencil_event_get_preferences(event)));
	if (pencil_event_is_synthesized(event))
		add(object, "synthesized", json_object_new_boolean(1));
	if (pencil_event_get_error(event))
		add(object, "error", json_object_new_string(pencil_error_get_message(pencil_event_get_error(event))));
	return object;
}
