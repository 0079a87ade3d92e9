/* Generated from interfaces/org.pencild.Pen.varlink by scripts/generate-from-interface: do not edit. */
/* The fields of the protocol's Preferences, in its order, for objects.c to expand:
 * NAME(field, key, type, table), INTEGER(field, key), NUMBER(field, key), FLAG(field, key). */
#ifndef PENCIL_PREFERENCE_FIELDS_H
#define PENCIL_PREFERENCE_FIELDS_H

#define PREFERENCE_FIELDS(NAME, INTEGER, NUMBER, FLAG) \
	NAME(double_tap_action, "doubleTapAction", enum pencil_action, action_table) \
	NAME(squeeze_action, "squeezeAction", enum pencil_action, action_table) \
	NAME(tap_button, "tapButton", enum pencil_gesture_button, gesture_button_table) \
	NAME(squeeze_button, "squeezeButton", enum pencil_gesture_button, gesture_button_table) \
	INTEGER(tap_max_duration, "tapMaxDuration") \
	INTEGER(double_tap_interval, "doubleTapInterval") \
	INTEGER(long_press_duration, "longPressDuration") \
	NUMBER(double_tap_slop, "doubleTapSlop") \
	FLAG(withhold_gesture_clicks, "withholdGestureClicks") \
	NAME(eraser_button, "eraserButton", enum pencil_eraser_button, eraser_button_table) \
	FLAG(prefers_pencil_only_drawing, "prefersPencilOnlyDrawing") \
	FLAG(prefers_hover_tool_preview, "prefersHoverToolPreview") \
	FLAG(mirror_switches_tool, "mirrorSwitchesTool")

#endif
