"""The Apps page: whether apps get the clicks of the gestures' buttons, what drawing apps
are asked to do, and pencil-actions, which performs the gestures in other apps (whether it
runs, a switch to turn it on or off, and its bindings file)."""

from __future__ import annotations

import gzip
import json
import os
import shutil
from typing import Any, Optional

import pencild
from gi.repository import Adw, Gio, GLib, Gtk

from .actions_state import ActionsState, bindings_path, example_bindings, pencil_actions_state
from .gnome import gnome_is_the_desktop, gnome_mirror_row
from .page import Window
from .widgets import accessible_label, plain_row, switch_row


class AppsPage:
    MIRROR_SWITCH_SUBTITLE = ("When no app acts on a double-tap itself, the pen’s tip becomes its eraser end in "
                              "every drawing app, and a second double-tap turns it back")

    def __init__(self, window: Window) -> None:
        self.window = window
        self.actions_timer: Optional[int] = None
        self.actions_asking = False
        self.actions_switching = False
        self.page = Adw.PreferencesPage(title="Apps", icon_name="view-app-grid-symbolic", name="apps")
        group = Adw.PreferencesGroup(title="Gesture clicks")
        self.withhold_row, self.withhold_switch = switch_row("Keep gesture clicks from apps", "")
        self.withhold_switch.connect("notify::active", self.switch_changed, "withhold_gesture_clicks")
        group.add(self.withhold_row)
        # Where no app acts on a double-tap, pencild switches the pen itself (through its copy
        # of the pen), which needs the clicks kept: the row follows the switch above.
        self.mirror_row, self.mirror_switch = switch_row("Switch to the eraser in every app",
                                                         self.MIRROR_SWITCH_SUBTITLE)
        self.mirror_switch.connect("notify::active", self.switch_changed, "mirror_switches_tool")
        group.add(self.mirror_row)
        if gnome_is_the_desktop():
            group.add(gnome_mirror_row(window.toast))
        self.page.add(group)
        group = Adw.PreferencesGroup(title="Drawing apps", description="Apps that follow these read them from pencild")
        row, self.only_pen_switch = switch_row("Draw only with the pen", "Fingers scroll and zoom")
        self.only_pen_switch.connect("notify::active", self.switch_changed, "prefers_pencil_only_drawing")
        group.add(row)
        row, self.hover_switch = switch_row("Preview the tool while hovering", "Shows where the pen will mark")
        self.hover_switch.connect("notify::active", self.switch_changed, "prefers_hover_tool_preview")
        group.add(row)
        self.page.add(group)
        group = Adw.PreferencesGroup(title="Other apps",
                                     description="pencil-actions presses an app’s shortcut for a gesture")
        self.actions_row = plain_row("pencil-actions")  # its subtitle has the state and why
        self.actions_switch = Gtk.Switch(valign=Gtk.Align.CENTER, sensitive=False)
        accessible_label(self.actions_switch, "Perform gestures in other apps")
        self.actions_switch.connect("notify::active", self.actions_switched)
        self.actions_row.add_suffix(self.actions_switch)
        group.add(self.actions_row)
        self.bindings_row = plain_row("Bindings", bindings_path())  # the user's path, as it is
        button = Gtk.Button(label="Open", valign=Gtk.Align.CENTER)
        accessible_label(button, "Open the bindings file")
        button.connect("clicked", self.open_bindings)
        self.bindings_row.add_suffix(button)
        group.add(self.bindings_row)
        # What a squeeze shows where no app shows its own: one row per app the bindings name.
        self.palette_row = Adw.ExpanderRow(title="System palette", subtitle="What a squeeze shows in each app")
        self.palette_rows: list[Adw.ActionRow] = []
        group.add(self.palette_row)
        self.page.add(group)
        self.update_withhold_subtitle()
        self.update_actions_row()
        self.update_palette_rows()

    def switch_changed(self, switch: Gtk.Switch, _: Any, name: str) -> None:
        if self.window.updating:
            return
        self.window.send(**{name: switch.get_active()})

    def show_preferences(self, preferences: pencild.Preferences) -> None:
        for switch, value in ((self.withhold_switch, preferences.withhold_gesture_clicks),
                              (self.mirror_switch, preferences.mirror_switches_tool),
                              (self.only_pen_switch, preferences.prefers_pencil_only_drawing),
                              (self.hover_switch, preferences.prefers_hover_tool_preview)):
            if value is not None:
                switch.set_active(value)

    def update_sensitivity(self, connected: bool) -> None:
        for switch in (self.withhold_switch, self.only_pen_switch, self.hover_switch):
            switch.set_sensitive(connected)
        # The switch of tools is made through the copy of the pen that keeps the clicks: greyed
        # without them, and saying so.
        kept = self.withhold_switch.get_active()
        self.mirror_switch.set_sensitive(connected and kept)
        self.mirror_row.set_subtitle(self.MIRROR_SWITCH_SUBTITLE if kept else
                                     "Works only while “Keep gesture clicks from apps” is on: pencild makes the "
                                     "switch in the copy of the pen that keeps the clicks")

    def update_withhold_subtitle(self) -> None:
        interval = self.window.preferences.double_tap_interval or 400
        self.withhold_row.set_subtitle(f"On: a double-tap’s and a squeeze’s clicks never reach apps, a lone click of the "
                                       f"double-tap button reaches them up to {interval} ms late, and the squeeze "
                                       f"button no longer clicks. Off: apps get every click as the pen makes it")

    def follow_actions(self, shown: bool) -> None:
        """While the Apps page is shown, whether pencil-actions runs is asked every 2 s, so
        that starting or stopping it shows without leaving the page."""
        if shown and self.actions_timer is None:
            self.update_actions_row()
            self.update_palette_rows()
            self.actions_timer = GLib.timeout_add_seconds(2, self.actions_due)
        elif not shown and self.actions_timer is not None:
            GLib.source_remove(self.actions_timer)
            self.actions_timer = None

    def actions_due(self) -> bool:
        self.update_actions_row()
        return True

    def update_actions_row(self) -> None:
        """Asks without blocking the window: systemctl answers through the main loop."""
        if self.actions_asking:
            return
        self.actions_asking = True

        def answered(state: ActionsState) -> None:
            self.actions_asking = False
            if self.actions_switching:
                return  # systemctl is turning it on or off: its answer comes next
            self.window.updating = True
            self.actions_switch.set_active(state.running)
            self.window.updating = False
            self.actions_switch.set_sensitive(state.can_switch)
            self.actions_row.set_subtitle(f"{state.text}. {state.why_not}" if state.why_not else state.text)
        pencil_actions_state(answered)

    def actions_switched(self, switch: Gtk.Switch, _: Any) -> None:
        """On: unmasked, enabled and started in the user's manager, as it is at every login
        after; off: stopped and masked, since the package enables it for every user (in
        /etc/systemd/user), which a user's disable cannot undo. The row says what systemctl
        said when it could not."""
        if self.window.updating or self.actions_switching:
            return
        on = switch.get_active()
        unit = "pencil-actions.service"
        command = (["sh", "-c", f"systemctl --user unmask {unit} && systemctl --user enable --now {unit}"] if on
                   else ["systemctl", "--user", "mask", "--now", unit])
        try:
            process = Gio.Subprocess.new(command, Gio.SubprocessFlags.STDOUT_SILENCE | Gio.SubprocessFlags.STDERR_PIPE)
        except GLib.Error as error:
            self.window.toast(f"Could not run systemctl: {error.message}")
            self.update_actions_row()
            return
        self.actions_switching = True
        switch.set_sensitive(False)
        self.actions_row.set_subtitle("Turning on…" if on else "Turning off…")

        def done(source: Gio.Subprocess, result: Gio.AsyncResult) -> None:
            try:
                _, _, errors = source.communicate_utf8_finish(result)
            except GLib.Error as error:
                errors = error.message
            self.actions_switching = False
            if not source.get_successful():
                last = next((line for line in reversed((errors or "").splitlines()) if line.strip()), "")
                self.window.toast(f"Could not turn pencil-actions {'on' if on else 'off'}: {last}")
            self.update_actions_row()
        process.communicate_utf8_async(None, None, done)

    def update_palette_rows(self) -> None:
        """Asks `pencilctl actions palette --json` (the bindings as pencil-actions reads them,
        through its own parser) without blocking the window, and shows each app's items."""
        pencilctl = shutil.which("pencilctl")
        if pencilctl is None:
            self.show_palette_rows(None, "pencilctl is not installed, which says what the palette holds")
            return
        try:
            process = Gio.Subprocess.new([pencilctl, "actions", "palette", "--json"],
                                         Gio.SubprocessFlags.STDOUT_PIPE | Gio.SubprocessFlags.STDERR_PIPE)
        except GLib.Error as error:
            self.show_palette_rows(None, f"pencilctl could not run: {error.message}")
            return

        def done(source: Gio.Subprocess, result: Gio.AsyncResult) -> None:
            try:
                _, output, errors = source.communicate_utf8_finish(result)
            except GLib.Error as error:
                self.show_palette_rows(None, error.message)
                return
            try:
                palettes = json.loads(output or "")["palettes"] if source.get_successful() else None
            except (ValueError, KeyError, TypeError):
                palettes = None
            last = next((line for line in reversed((errors or "").splitlines()) if line.strip()), "no answer")
            self.show_palette_rows(palettes, last)
        process.communicate_utf8_async(None, None, done)

    def show_palette_rows(self, palettes: Optional[list[Any]], why_not: str) -> None:
        for row in self.palette_rows:
            self.palette_row.remove(row)
        self.palette_rows = []
        if not isinstance(palettes, list):
            self.palette_row.set_subtitle(f"Unknown: {why_not}")
            return
        self.palette_row.set_subtitle("What a squeeze shows in each app, with Pen and Eraser first where the pen has them")
        for palette in palettes[:64]:
            if not isinstance(palette, dict) or not isinstance(palette.get("items"), list):
                continue
            app = palette.get("app")
            labels = [str(item.get("label", "")) for item in palette["items"] if isinstance(item, dict)]
            row = plain_row(str(app) if isinstance(app, str) else "Any other app", ", ".join(labels))
            self.palette_row.add_row(row)
            self.palette_rows.append(row)

    def open_bindings(self, *_: Any) -> None:
        path = bindings_path()
        if not os.path.exists(path):
            example = example_bindings()
            try:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                if example is not None and example.endswith(".gz"):
                    with gzip.open(example, "rb") as source, open(path, "wb") as target:
                        shutil.copyfileobj(source, target)
                elif example is not None:
                    shutil.copyfile(example, path)
                else:
                    with open(path, "w", encoding="utf-8") as target:
                        target.write("# pencil-actions bindings: one section per preferred action, e.g.\n"
                                     "# [switchEraser]\n# key = e\n")
            except OSError as error:
                self.window.toast(f"Cannot write {path}: {error.strerror}")
                return
            self.window.toast(f"Made {path} from the example")
        try:
            Gio.AppInfo.launch_default_for_uri(GLib.filename_to_uri(path, None), None)
        except GLib.Error as error:
            self.window.toast(f"No app opens {path}: {error.message}")
