"""GNOME's tablet settings, where GNOME is the desktop: a person has two places for the pen's
buttons, its Wacom Tablet panel and this window, and the pages say how the two meet."""

from __future__ import annotations

import os
from typing import Callable

from gi.repository import Adw, Gio, GLib, Gtk

from .widgets import accessible_label, plain_row


def gnome_is_the_desktop() -> bool:
    """GNOME's own settings are there to point at (XDG_CURRENT_DESKTOP is a list: "ubuntu:GNOME")."""
    return any(part.strip().upper().startswith("GNOME")
               for part in os.environ.get("XDG_CURRENT_DESKTOP", "").split(":"))


def gnome_settings_button(toast: Callable[[str], None]) -> Gtk.Button:
    """Opens GNOME's Wacom Tablet panel; `toast` says why it could not."""
    button = Gtk.Button(label="Open", valign=Gtk.Align.CENTER)
    accessible_label(button, "Open GNOME’s Wacom Tablet settings")
    button.connect("clicked", lambda *_: open_gnome_tablet_settings(toast))
    return button


def open_gnome_tablet_settings(toast: Callable[[str], None]) -> None:
    try:
        Gio.Subprocess.new(["gnome-control-center", "wacom"], Gio.SubprocessFlags.NONE)
    except GLib.Error as error:
        toast(f"Cannot open GNOME’s Wacom Tablet settings: {error.message}")


def gnome_gesture_row(gesture: str, toast: Callable[[str], None]) -> Adw.ActionRow:
    """Below a gesture's button. GNOME maps a button in the compositor, to the clicks apps
    receive; pencild reads the pen's own evdev codes below that, so a mapping never moves a
    gesture to another button (docs/gestures.md, "GNOME's tablet settings")."""
    row = plain_row("GNOME’s tablet settings",
                    f"GNOME turns the pen’s buttons into clicks for apps (middle or right click, back, forward). "
                    f"The {gesture} comes from the button itself, whatever GNOME maps it to; its clicks reach "
                    f"apps as GNOME maps them, unless “Keep gesture clicks from apps” is on (Apps page)")
    row.add_suffix(gnome_settings_button(toast))
    return row


def gnome_mirror_row(toast: Callable[[str], None]) -> Adw.ActionRow:
    """Beside the gesture clicks' switches. With the mirror, GNOME reads it in the pen's place:
    it has the pen's name and ids, so GNOME's settings for the pen apply to it."""
    row = plain_row("GNOME’s tablet settings",
                    "With gesture clicks kept from apps, GNOME reads pencild’s copy of the pen, which has "
                    "the pen’s name and ids: GNOME’s button mappings apply to the clicks that still reach apps")
    row.add_suffix(gnome_settings_button(toast))
    return row
