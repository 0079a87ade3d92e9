"""The Timing page: how quick a double-tap, how short a tap, how still the pen between the
presses, how long a long press; each within what a hand can make (model.TIMINGS)."""

from __future__ import annotations

from typing import Dict

import pencild
from gi.repository import Adw, Gtk

from .model import TIMING_DEFAULTS, TIMINGS
from .page import Window
from .widgets import TimingRow


class TimingPage:
    def __init__(self, window: Window) -> None:
        self.window = window
        self.page = Adw.PreferencesPage(title="Timing", icon_name="preferences-system-time-symbolic", name="timing")
        self.rows: Dict[str, TimingRow] = {}
        group = Adw.PreferencesGroup(title="Double-tap", description="Try your settings on the Try it page")
        for timing in TIMINGS:
            if timing.field == "long_press_duration":
                self.page.add(group)
                group = Adw.PreferencesGroup(title="Squeeze")
            row = TimingRow(timing)
            row.spin.connect("value-changed", self.spin_changed, row)
            group.add(row)
            self.rows[timing.field] = row
        self.page.add(group)
        group = Adw.PreferencesGroup()
        self.reset_button = Gtk.Button(label="Reset to defaults", halign=Gtk.Align.CENTER, css_classes=["pill"])
        self.reset_button.connect("clicked", lambda *_: window.send(**{
            "tap_max_duration": TIMING_DEFAULTS.tap_max_duration,
            "double_tap_interval": TIMING_DEFAULTS.double_tap_interval,
            "long_press_duration": TIMING_DEFAULTS.long_press_duration,
            "double_tap_slop": TIMING_DEFAULTS.double_tap_slop}))
        group.add(self.reset_button)
        self.page.add(group)

    def spin_changed(self, spin: Gtk.SpinButton, row: TimingRow) -> None:
        if self.window.updating:
            return
        name = row.timing.field
        value = row.chosen()
        current = getattr(self.window.preferences, name)
        if current is not None and abs(float(current) - value) < 1e-9:
            return
        self.window.send(**{name: value if name == "double_tap_slop" else int(value)})

    def show_preferences(self, preferences: pencild.Preferences) -> None:
        for field, row in self.rows.items():
            value = getattr(preferences, field)
            if value is not None:
                row.show(float(value))

    def update_sensitivity(self, connected: bool) -> None:
        for row in self.rows.values():
            row.spin.set_sensitive(connected)
        self.reset_button.set_sensitive(connected)
