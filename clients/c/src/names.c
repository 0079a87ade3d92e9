/* The protocol's names and the enums that stand for them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

#define TABLE(variable, ...)                                                             \
	static const char *const variable##_names[] = {NULL, __VA_ARGS__};                \
	const struct name_table variable = {variable##_names,                              \
					    (int)(sizeof(variable##_names) / sizeof(variable##_names[0]))}

/* The order of each list is the order of its enum in pencil.h. */
TABLE(event_type_table, "deviceAdded", "deviceRemoved", "proximityIn", "proximityOut", "tipDown", "tipUp",
      "motion", "hover", "buttonDown", "buttonUp", "doubleTap", "squeeze", "preferencesChanged");
TABLE(tool_table, "pen", "eraser", "brush", "pencil", "airbrush", "mouse", "lens");
TABLE(axis_table, "pressure", "distance", "tilt", "rotation", "slider", "wheel");
TABLE(button_table, "stylus", "stylus2", "stylus3", "eraser");
TABLE(phase_table, "began", "changed", "ended", "cancelled");
TABLE(action_table, "ignore", "switchEraser", "switchPrevious", "showColorPalette", "showInkAttributes",
      "showContextualPalette", "runSystemShortcut");
TABLE(focus_table, "this", "other", "none");
TABLE(gesture_button_table, "stylus", "stylus2", "stylus3", "longPress", "none", "eraser");
TABLE(eraser_button_table, "eraser", "button");
TABLE(stylus_kind_table, "general", "inking", "airbrush", "classic", "marker", "stroke", "puck", "mobile", "unknown");
TABLE(eraser_kind_table, "none", "invert", "button");

const char *const pose_field_names[POSE_FIELD_COUNT] = {
	[POSE_X] = "x",
	[POSE_Y] = "y",
	[POSE_X_MM] = "xMillimeters",
	[POSE_Y_MM] = "yMillimeters",
	[POSE_PRESSURE] = "pressure",
	[POSE_Z_OFFSET] = "zOffset",
	[POSE_TILT_X] = "tiltX",
	[POSE_TILT_Y] = "tiltY",
	[POSE_AZIMUTH] = "azimuth",
	[POSE_ALTITUDE] = "altitude",
	[POSE_ROLL] = "roll",
	[POSE_SLIDER] = "slider",
	[POSE_WHEEL] = "wheel",
};

int name_lookup(const struct name_table *table, const char *text)
{
	for (int value = 1; value < table->count; value++)
		if (strcmp(table->names[value], text) == 0)
			return value;
	return -1;
}

const char *name_of(const struct name_table *table, int value)
{
	return value >= 1 && value < table->count ? table->names[value] : NULL;
}

int name_set(struct name *name, const struct name_table *table, const char *text)
{
	name_clear(name);
	name->value = name_lookup(table, text);
	if (name->value < 0) {
		name->text = strdup(text);
		if (!name->text)
			return -ENOMEM;
	}
	return 0;
}

const char *name_text(const struct name *name, const struct name_table *table)
{
	return name->value < 0 ? name->text : name_of(table, name->value);
}

int name_copy(struct name *to, const struct name *from)
{
	name_clear(to);
	to->value = from->value;
	if (from->text) {
		to->text = strdup(from->text);
		if (!to->text)
			return -ENOMEM;
	}
	return 0;
}

void name_clear(struct name *name)
{
	free(name->text);
	name->text = NULL;
	name->value = 0;
}

PENCIL_EXPORT const char *pencil_event_type_to_name(enum pencil_event_type type)
{
	return name_of(&event_type_table, (int)type);
}

PENCIL_EXPORT const char *pencil_tool_type_to_name(enum pencil_tool_type tool)
{
	return name_of(&tool_table, (int)tool);
}

PENCIL_EXPORT const char *pencil_axis_to_name(enum pencil_axis axis)
{
	return name_of(&axis_table, (int)axis);
}

PENCIL_EXPORT const char *pencil_button_to_name(enum pencil_button button)
{
	return name_of(&button_table, (int)button);
}

PENCIL_EXPORT const char *pencil_phase_to_name(enum pencil_phase phase)
{
	return name_of(&phase_table, (int)phase);
}

PENCIL_EXPORT const char *pencil_action_to_name(enum pencil_action action)
{
	return name_of(&action_table, (int)action);
}

PENCIL_EXPORT const char *pencil_focus_to_name(enum pencil_focus focus)
{
	return name_of(&focus_table, (int)focus);
}

PENCIL_EXPORT const char *pencil_gesture_button_to_name(enum pencil_gesture_button button)
{
	return name_of(&gesture_button_table, (int)button);
}
