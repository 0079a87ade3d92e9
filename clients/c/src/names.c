/* Generated from interfaces/org.pencild.Pen.varlink by scripts/generate-from-interface: do not edit. */
/* The protocol's names, numbered as the enums of pencil.h number them. */
#include "private.h"

#define TABLE(variable, ...)                                                             \
	static const char *const variable##_names[] = {NULL, __VA_ARGS__};                \
	const struct name_table variable = {variable##_names,                              \
					    (int)(sizeof(variable##_names) / sizeof(variable##_names[0]))}

TABLE(event_type_table, "deviceAdded", "deviceRemoved", "proximityIn", "proximityOut", "tipDown", "tipUp",
      "motion", "hover", "buttonDown", "buttonUp", "doubleTap", "squeeze", "preferencesChanged",
      "deviceChanged");
TABLE(tool_table, "pen", "eraser", "brush", "pencil", "airbrush", "mouse", "lens");
TABLE(axis_table, "pressure", "distance", "tilt", "rotation", "slider", "wheel");
TABLE(button_table, "stylus", "stylus2", "stylus3", "eraser");
TABLE(phase_table, "began", "changed", "ended", "cancelled");
TABLE(action_table, "ignore", "switchEraser", "switchPrevious", "showColorPalette", "showInkAttributes",
      "showContextualPalette", "runSystemShortcut");
TABLE(focus_table, "this", "other", "none", "pen");
TABLE(gesture_button_table, "stylus", "stylus2", "stylus3", "longPress", "none", "eraser");
TABLE(eraser_button_table, "eraser", "button");
TABLE(stylus_kind_table, "general", "inking", "airbrush", "classic", "marker", "stroke", "puck", "mobile",
      "unknown");
TABLE(eraser_kind_table, "none", "invert", "button");
