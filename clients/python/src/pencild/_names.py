# Generated from interfaces/org.pencild.Pen.varlink by scripts/generate-from-interface: do not edit.
"""The protocol's names as enums, and the fields of its Preferences."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

from ._wirename import WireName

__all__ = [
    "EventType",
    "ToolType",
    "Axis",
    "Button",
    "GestureButton",
    "EraserButtonMode",
    "StylusKind",
    "EraserKind",
    "Phase",
    "Gesture",
    "Action",
    "Focus",
    "GESTURES",
    "PREFERENCE_FIELDS",
    "PreferenceFields",
]


class EventType(WireName):
    DEVICE_ADDED = "deviceAdded"
    DEVICE_REMOVED = "deviceRemoved"
    PROXIMITY_IN = "proximityIn"
    PROXIMITY_OUT = "proximityOut"
    TIP_DOWN = "tipDown"
    TIP_UP = "tipUp"
    MOTION = "motion"
    HOVER = "hover"
    BUTTON_DOWN = "buttonDown"
    BUTTON_UP = "buttonUp"
    DOUBLE_TAP = "doubleTap"
    SQUEEZE = "squeeze"
    PREFERENCES_CHANGED = "preferencesChanged"
    DEVICE_CHANGED = "deviceChanged"


class ToolType(WireName):
    PEN = "pen"
    ERASER = "eraser"
    BRUSH = "brush"
    PENCIL = "pencil"
    AIRBRUSH = "airbrush"
    MOUSE = "mouse"
    LENS = "lens"


class Axis(WireName):
    PRESSURE = "pressure"
    DISTANCE = "distance"
    TILT = "tilt"
    ROTATION = "rotation"
    SLIDER = "slider"
    WHEEL = "wheel"


class Button(WireName):
    """A barrel button, as events and devices name it."""

    STYLUS = "stylus"
    STYLUS2 = "stylus2"
    STYLUS3 = "stylus3"
    #: The button of a pen whose eraser is a button, under ``eraserButton`` ``button``.
    ERASER = "eraser"


class GestureButton(WireName):
    """What triggers a gesture (the tapButton and squeezeButton preferences)."""

    STYLUS = "stylus"
    STYLUS2 = "stylus2"
    STYLUS3 = "stylus3"
    ERASER = "eraser"
    LONG_PRESS = "longPress"
    NONE = "none"


class EraserButtonMode(WireName):
    """On a pen whose eraser is a button: the eraser tool, or a barrel button ``eraser``."""

    ERASER = "eraser"
    BUTTON = "button"


class StylusKind(WireName):
    """What kind of stylus libwacom says a tool is."""

    GENERAL = "general"
    INKING = "inking"
    AIRBRUSH = "airbrush"
    CLASSIC = "classic"
    MARKER = "marker"
    STROKE = "stroke"
    PUCK = "puck"
    MOBILE = "mobile"
    UNKNOWN_KIND = "unknown"


class EraserKind(WireName):
    """A stylus's eraser: none, the other end (``invert``), or a button the firmware reports as
    the eraser tool."""

    NONE = "none"
    INVERT = "invert"
    BUTTON = "button"


class Phase(WireName):
    BEGAN = "began"
    CHANGED = "changed"
    ENDED = "ended"
    CANCELLED = "cancelled"


class Gesture(WireName):
    """A gesture pencild recognises: reported by the event type of its name, its action the
    user's preference ``<gesture>Action`` (``GESTURES``)."""

    DOUBLE_TAP = "doubleTap"
    SQUEEZE = "squeeze"


class Action(WireName):
    """A preferred action, as Apple's UIPencilPreferredAction."""

    IGNORE = "ignore"
    SWITCH_ERASER = "switchEraser"
    SWITCH_PREVIOUS = "switchPrevious"
    SHOW_COLOR_PALETTE = "showColorPalette"
    SHOW_INK_ATTRIBUTES = "showInkAttributes"
    SHOW_CONTEXTUAL_PALETTE = "showContextualPalette"
    RUN_SYSTEM_SHORTCUT = "runSystemShortcut"


class Focus(WireName):
    """Who acts on a gesture (docs/protocol.md, "Which app acts"): an app that claimed focus acts
    on THIS (and on NONE if it wishes); no app acts on OTHER."""

    THIS = "this"
    OTHER = "other"
    NONE = "none"
    PEN = "pen"


@dataclass(frozen=True)
class PreferenceFields:
    """The fields of Preferences, each None when not set."""

    double_tap_action: Optional[Action] = None
    squeeze_action: Optional[Action] = None
    tap_button: Optional[GestureButton] = None
    squeeze_button: Optional[GestureButton] = None
    tap_max_duration: Optional[int] = None
    double_tap_interval: Optional[int] = None
    long_press_duration: Optional[int] = None
    double_tap_slop: Optional[float] = None
    withhold_gesture_clicks: Optional[bool] = None
    eraser_button: Optional[EraserButtonMode] = None
    prefers_pencil_only_drawing: Optional[bool] = None
    prefers_hover_tool_preview: Optional[bool] = None
    mirror_switches_tool: Optional[bool] = None


# Preferences' fields: (attribute, wire name, kind), in the interface's order.
PREFERENCE_FIELDS: Tuple[Tuple[str, str, object], ...] = (
    ("double_tap_action", "doubleTapAction", Action),
    ("squeeze_action", "squeezeAction", Action),
    ("tap_button", "tapButton", GestureButton),
    ("squeeze_button", "squeezeButton", GestureButton),
    ("tap_max_duration", "tapMaxDuration", int),
    ("double_tap_interval", "doubleTapInterval", int),
    ("long_press_duration", "longPressDuration", int),
    ("double_tap_slop", "doubleTapSlop", float),
    ("withhold_gesture_clicks", "withholdGestureClicks", bool),
    ("eraser_button", "eraserButton", EraserButtonMode),
    ("prefers_pencil_only_drawing", "prefersPencilOnlyDrawing", bool),
    ("prefers_hover_tool_preview", "prefersHoverToolPreview", bool),
    ("mirror_switches_tool", "mirrorSwitchesTool", bool),
)


# The gestures: (gesture, the preference holding its action, whether it is phased), in the
# interface's order. A phased gesture (began, changed, then ended or cancelled) is acted on when
# it ends; a one-shot gesture when it arrives.
GESTURES: Tuple[Tuple[Gesture, str, bool], ...] = (
    (Gesture.DOUBLE_TAP, "doubleTapAction", False),
    (Gesture.SQUEEZE, "squeezeAction", True),
)
