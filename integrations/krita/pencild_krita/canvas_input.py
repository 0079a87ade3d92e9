"""What Krita's Canvas Input does with the pen's barrel buttons (Settings › Configure Krita ›
Canvas Input Settings): on which mouse buttons it opens its pop-up palette ("Show Popup
Widget"), read from the input profile Krita uses, and which mouse button each barrel button
is to Krita. Plain Python, no Krita or Qt: tests/krita loads it on its own."""

from __future__ import annotations

import configparser
import os
import re
from typing import Dict, Iterable, List, Optional, Tuple

DEFAULT_PROFILE = "Krita Default"
POPUP_ACTION = "Show Popup Widget"
# Qt::MouseButton values.
LEFT_BUTTON, RIGHT_BUTTON, MIDDLE_BUTTON, BACK_BUTTON = 0x1, 0x2, 0x4, 0x8
# The barrel buttons as X11 (xf86-input-wacom, xf86-input-libinput) and Wayland (tablet-v2)
# hand them to Qt: the lower one is a middle click, the upper one a right click.
PEN_BUTTONS: Dict[str, int] = {"stylus": MIDDLE_BUTTON, "stylus2": RIGHT_BUTTON, "stylus3": BACK_BUTTON}
BUTTON_NAMES: Dict[int, str] = {LEFT_BUTTON: "left click", RIGHT_BUTTON: "right click",
                                MIDDLE_BUTTON: "middle click", BACK_BUTTON: "back button"}
# Krita's own default when no profile can be read: the right click.
DEFAULT_POPUP_BUTTONS: Tuple[int, ...] = (RIGHT_BUTTON,)

# A shortcut as KisShortcutConfiguration writes it: {mode;type;[keys];buttons;wheel;gesture}.
_SHORTCUT = re.compile(r"^\{(\d+);(\d+);\[([0-9a-fA-F,]*)\];(\d+);(\d+);(\d+)\}$")
_MOUSE_BUTTON_TYPE = 2
# The mode of "Show Popup Widget" that shows the palette (KisShowPaletteAction).
_SHOW_PALETTE_MODE = 0


def _read(path: str) -> Optional[configparser.ConfigParser]:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    try:
        with open(path, encoding="utf-8") as file:
            parser.read_file(file)
    except (OSError, UnicodeDecodeError, configparser.Error):
        return None
    return parser


def find_profile(name: str, folders: Iterable[str]) -> Optional[configparser.ConfigParser]:
    """The profile called ``name`` ([General] name=), from the first folder that has it (the
    user's folder comes first, as Krita reads them); else Krita's default profile."""
    profiles: List[Tuple[str, configparser.ConfigParser]] = []
    for folder in folders:
        try:
            entries = sorted(os.listdir(folder))
        except OSError:
            continue
        for entry in entries:
            if entry.endswith(".profile"):
                parser = _read(os.path.join(folder, entry))
                if parser is not None and parser.has_option("General", "name"):
                    profiles.append((parser.get("General", "name"), parser))
    for wanted in (name or DEFAULT_PROFILE, DEFAULT_PROFILE):
        for profile_name, parser in profiles:
            if profile_name == wanted:
                return parser
    return None


def popup_buttons(profile: Optional[configparser.ConfigParser]) -> Tuple[int, ...]:
    """The mouse buttons that open the pop-up palette with no key held, in the profile's
    order; Krita's default (the right click) when there is no profile to read."""
    if profile is None:
        return DEFAULT_POPUP_BUTTONS
    if not profile.has_section(POPUP_ACTION):
        return ()
    found: List[int] = []
    for _, value in profile.items(POPUP_ACTION):
        match = _SHORTCUT.match(value.strip())
        if match is None:
            continue
        mode, kind, keys, buttons = int(match[1]), int(match[2]), match[3], int(match[4])
        if mode == _SHOW_PALETTE_MODE and kind == _MOUSE_BUTTON_TYPE and not keys:
            for bit in (LEFT_BUTTON, RIGHT_BUTTON, MIDDLE_BUTTON, BACK_BUTTON, 0x10):
                if buttons == bit and bit not in found:
                    found.append(bit)
    return tuple(found)


def gesture_button(gesture: str, preferences: Dict[str, str]) -> Optional[str]:
    """The barrel button whose presses make ``gesture`` (docs/gestures.md): the tap button for
    a double-tap, the squeeze button for a squeeze, unless it is `longPress` (pencild's
    defaults where the preferences are not known); None for a gesture this plugin does not
    know, whose button it cannot tell."""
    tap = preferences.get("tapButton", "stylus")
    if gesture == "doubleTap":
        return tap
    if gesture != "squeeze":
        return None
    squeeze = preferences.get("squeezeButton", "stylus2")
    return tap if squeeze == "longPress" else squeeze


def shared_with_krita(gesture: str, preferences: Dict[str, str], popup: Tuple[int, ...]) -> Optional[str]:
    """The barrel button of ``gesture`` when its presses reach Krita too and Krita opens its
    pop-up palette on them, so that one press would be Krita's and the plugin's; else None.
    With withholdGestureClicks pencild's mirror keeps a gesture's presses from every app."""
    if preferences.get("withholdGestureClicks") == "true":
        return None
    button = gesture_button(gesture, preferences)
    return button if button is not None and PEN_BUTTONS.get(button) in popup else None
