"""The Double-tap and the Squeeze pages: each gesture's action, and the button that makes it.
One class builds both, since a gesture's button may not be the other's."""

from __future__ import annotations

from typing import Sequence

import pencild
from gi.repository import Adw

from .gnome import gnome_gesture_row, gnome_is_the_desktop
from .model import SQUEEZE_CHOICES, TAP_CHOICES, button_lack, capitalised
from .page import Window
from .widgets import ActionGroup, ButtonChoice


class GesturePages:
    def __init__(self, window: Window) -> None:
        self.window = window
        self.tap_page = Adw.PreferencesPage(title="Double-tap", icon_name="media-playlist-repeat-symbolic",
                                            name="double-tap")
        self.tap_action = ActionGroup("When you double-tap", "Press a barrel button twice, quickly",
                                      lambda value: window.send(double_tap_action=pencild.Action(value)), "Double-tap")
        self.tap_page.add(self.tap_action)
        self.tap_button = ButtonChoice("Button", "The button you double-tap", TAP_CHOICES,
                                       lambda value: window.send(tap_button=pencild.GestureButton(value)), "Double-tap")
        if gnome_is_the_desktop():
            self.tap_button.add(gnome_gesture_row("double-tap", window.toast))
        self.tap_page.add(self.tap_button)

        self.squeeze_page = Adw.PreferencesPage(title="Squeeze", icon_name="object-select-symbolic", name="squeeze")
        self.squeeze_action = ActionGroup("When you squeeze", "Hold the button, then let go",
                                          lambda value: window.send(squeeze_action=pencild.Action(value)), "Squeeze")
        self.squeeze_page.add(self.squeeze_action)
        self.squeeze_button = ButtonChoice("Button", "The button you hold", SQUEEZE_CHOICES,
                                           lambda value: window.send(squeeze_button=pencild.GestureButton(value)),
                                           "Squeeze")
        if gnome_is_the_desktop():
            self.squeeze_button.add(gnome_gesture_row("squeeze", window.toast))
        self.squeeze_page.add(self.squeeze_button)

    def show_preferences(self, preferences: pencild.Preferences) -> None:
        if preferences.double_tap_action is not None:
            self.tap_action.set_value(preferences.double_tap_action.value)
        if preferences.squeeze_action is not None:
            self.squeeze_action.set_value(preferences.squeeze_action.value)
        self.tap_button.set_value(str(preferences.tap_button or "stylus"))
        self.squeeze_button.set_value(str(preferences.squeeze_button or "stylus2"))

    def update_sensitivity(self, connected: bool) -> None:
        """A gesture's button cannot be the other gesture's, nor one the attached pens cannot
        press; the button chosen stays pressable (to leave it), and what it cannot do is said
        below it (and on the Try it page)."""
        preferences = self.window.preferences
        tap = str(preferences.tap_button or "stylus")
        squeeze = str(preferences.squeeze_button or "stylus2")
        eraser_button = preferences.eraser_button is pencild.EraserButtonMode.BUTTON
        devices = self.window.devices if connected else []
        for choice, current, other, other_name in ((self.tap_button, tap, squeeze, "squeeze"),
                                                   (self.squeeze_button, squeeze, tap, "double-tap")):
            for value in choice.buttons:
                reason = button_lack(value, devices, eraser_button)
                if value == other and value not in ("none", "longPress"):
                    reason = f"It is the {other_name}’s button"
                elif reason is not None:
                    reason = capitalised(reason)
                choice.offer(value, connected and (reason is None or value == current), reason)
        self.update_button_warnings(devices, tap, squeeze, eraser_button)
        for control in list(self.tap_action.checks.values()) + list(self.squeeze_action.checks.values()):
            control.set_sensitive(connected)

    def update_button_warnings(self, devices: Sequence[pencild.Device], tap: str, squeeze: str,
                               eraser_button: bool) -> None:
        tap_lack = button_lack(tap, devices, eraser_button)
        self.tap_button.warn(None if tap_lack is None else "No double-tap can be made with this button",
                             capitalised(tap_lack or ""))
        squeeze_lack = button_lack(squeeze, devices, eraser_button)
        if squeeze_lack is None:
            self.squeeze_button.warn(None)
        elif (squeeze == "eraser" and "not a button" in squeeze_lack) or tap == "none":
            self.squeeze_button.warn("No squeeze can be made with this button", capitalised(squeeze_lack))
        else:
            # pencild makes the squeeze a long press where the pen lacks its button.
            self.squeeze_button.warn("The squeeze is a long press instead",
                                     f"{capitalised(squeeze_lack)}: hold the double-tap button "
                                     f"for {self.window.preferences.long_press_duration or 500} ms")
