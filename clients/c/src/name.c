/* A protocol string as an enum value that keeps the text of names the library does not know. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

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
