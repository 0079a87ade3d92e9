"""The gestures' actions, the buttons and the timings as the window offers them, and what the
attached pens cannot do. No GTK here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

import pencild

# Preferred actions, named as Apple's Settings names them where it has a name.
ACTIONS: List[Tuple[pencild.Action, str]] = [
    (pencild.Action.SWITCH_ERASER, "Switch between the current tool and the eraser"),
    (pencild.Action.SWITCH_PREVIOUS, "Switch between the current tool and the last one used"),
    (pencild.Action.SHOW_COLOR_PALETTE, "Show the colour palette"),
    (pencild.Action.SHOW_INK_ATTRIBUTES, "Show ink attributes"),
    (pencild.Action.SHOW_CONTEXTUAL_PALETTE, "Show the contextual palette"),
    (pencild.Action.RUN_SYSTEM_SHORTCUT, "Run a system shortcut"),
    (pencild.Action.IGNORE, "Do nothing"),
]
ACTION_NAMES = {action.value: name for action, name in ACTIONS}
IGNORE_SUBTITLE = ("The gesture is still recognised and its clicks kept from apps; to let the button click as "
                   "usual, choose Off for the button")

# The barrel buttons as people call them: on Wacom pens BTN_STYLUS is the lower button
# (nearer the tip), BTN_STYLUS2 the upper one; a Pro Pen 3 has a third.
BUTTON_NAMES = {"stylus": "Lower button", "stylus2": "Upper button", "stylus3": "Third button",
                "eraser": "Eraser button"}
TAP_CHOICES = [("stylus", "Lower"), ("stylus2", "Upper"), ("stylus3", "Third"), ("eraser", "Eraser"),
               ("none", "Off")]
SQUEEZE_CHOICES = [("stylus", "Lower"), ("stylus2", "Upper"), ("stylus3", "Third"), ("eraser", "Eraser"),
                   ("longPress", "Long press"), ("none", "Off")]
CHOICE_ACCESSIBLE = {"stylus": "Lower button", "stylus2": "Upper button", "stylus3": "Third button",
                     "eraser": "Eraser button", "longPress": "Long press of the double-tap button", "none": "Off"}

# The daemon's defaults (docs/gestures.md).
TIMING_DEFAULTS = pencild.Preferences(tap_max_duration=300, double_tap_interval=400, long_press_duration=500,
                                      double_tap_slop=4.0)


@dataclass(frozen=True)
class Timing:
    """One timing preference as the window offers it. pencild accepts 1 to 10000 ms and 0 to
    1000 mm; the window offers what a hand can make (docs/gestures.md, "Default preferences"),
    so that a 5 ms double-tap speed, which no second press can meet, cannot be chosen here. A
    value from elsewhere (pencilctl) outside it is shown as it is, and said to be out of reach."""
    field: str                # the Preferences attribute
    title: str
    subtitle: str
    unit: str
    unit_name: str
    low: float
    high: float
    step: float
    digits: int
    too_low: str              # what a value under `low` does to the gestures
    too_high: str

    def text(self, value: float) -> str:
        return f"{value:g} {self.unit}"


TIMINGS = [
    Timing("double_tap_interval", "Double-tap speed", "Longest time from the first press to the second", "ms",
           "milliseconds", 100, 2000, 10, 0, "no second press comes that soon", "two presses a while apart count"),
    Timing("tap_max_duration", "Tap length", "Longest press that still counts as a tap", "ms", "milliseconds", 50, 2000,
           10, 0, "no press is that short", "a long press still counts as a tap"),
    Timing("double_tap_slop", "Distance between taps", "How far the pen may move between the presses", "mm",
           "millimetres", 0.5, 50.0, 0.5, 1, "no hand holds the pen that still", "presses far apart count"),
    Timing("long_press_duration", "Long press", "How long to hold the double-tap button when the squeeze is a long "
           "press of it", "ms",
           "milliseconds", 200, 5000, 10, 0, "a tap becomes a long press", "no one holds that long"),
]

STYLUS_ERASERS = {"invert": "eraser on the other end", "button": "eraser button", "none": "no eraser"}

# Which barrel button each count of buttons reaches: a pen with 2 has stylus and stylus2.
BUTTON_ORDER = {"stylus": 1, "stylus2": 2, "stylus3": 3}
TURN_ON_ERASER_BUTTON = "turn on “Use the eraser button as a button” on the Pens page"


def button_lack(value: str, devices: Sequence[pencild.Device], eraser_button: bool) -> Optional[str]:
    """Why the attached pens cannot press `value`, or None when one can (or none is attached,
    so there is nothing to go by). A device's buttons are the evdev codes it declares; where
    libwacom named the pens seen on it, their number of buttons decides (a tablet that
    declares BTN_STYLUS3 with only a Grip Pen seen has no third button in reach)."""
    if (value not in BUTTON_ORDER and value != "eraser") or not devices:
        return None
    name = BUTTON_NAMES[value].lower()
    having = [device for device in devices if value in (str(button) for button in device.buttons)]
    if not having:
        return f"your pen has no {name}" if len(devices) == 1 else f"no attached pen has {'an' if value == 'eraser' else 'a'} {name}"
    if value == "eraser":
        return None if eraser_button else "the eraser is not a button: " + TURN_ON_ERASER_BUTTON
    for device in having:
        if not device.styli or any(stylus.buttons >= BUTTON_ORDER[value] for stylus in device.styli):
            return None
    styli = sorted({stylus.name for device in having for stylus in device.styli})
    most = max(stylus.buttons for device in having for stylus in device.styli)
    return f"the {' and the '.join(styli)} {'has' if len(styli) == 1 else 'have'} {most} button{'s' if most != 1 else ''}"


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]
