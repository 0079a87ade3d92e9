"""The Pens page: the tablets and pens pencild has, the eraser button's switch, and while
pencild does not answer, why and what to do (the other pages' banner points here)."""

from __future__ import annotations

import os
from typing import Any, Dict, List, Set

import pencild
from gi.repository import Adw, GLib, Gtk

from .model import BUTTON_NAMES, STYLUS_ERASERS
from .page import Window
from .widgets import plain_row, switch_row

NOT_RUNNING_ADVICE = ("Start it with “systemctl --user start pencild.socket” (your own) or "
                      "“sudo systemctl start pencild.socket” (for everyone), or point PENCILD_SOCKET "
                      "at its socket. Looked for it at {path}.")
DENIED_ADVICE = ("You are not root, not in the socket’s group (input) and have no active local "
                 "session, for example over ssh. Use the console session, or join the group with "
                 "“sudo usermod -aG input {user}” and log in again.")

# What an event did to the page (PensPage.follow).
DEVICES_CHANGED = "devices changed"   # pencild's list of devices is to be read again
PEN_SEEN = "pen seen"                 # a pen with no libwacom name came near for the first time


class PensPage:
    def __init__(self, window: Window) -> None:
        self.window = window
        self.page = Adw.PreferencesPage(title="Pens", icon_name="input-tablet-symbolic", name="pens")
        self.status_group = Adw.PreferencesGroup()
        self.status = Adw.StatusPage(icon_name="input-tablet-symbolic", title="Connecting to pencild")
        self.status_group.add(self.status)
        self.page.add(self.status_group)
        self.pen_groups: List[Adw.PreferencesGroup] = []
        self.eraser_group = Adw.PreferencesGroup(
            title="Eraser button", description="Pens of 2-in-1 laptops often have an eraser button instead of an "
                                               "eraser end")
        row, self.eraser_switch = switch_row("Use the eraser button as a button",
                                             "It can then make a double-tap or a squeeze")
        self.eraser_switch.connect("notify::active", self.eraser_switched)
        self.eraser_group.add(row)
        self.page.add(self.eraser_group)
        self.known_styli: Dict[str, Set[str]] = {}
        # The tools of each device that came near without a libwacom name: by serial, their types.
        self.unnamed_tools: Dict[str, Dict[int, Set[str]]] = {}

    def eraser_switched(self, switch: Gtk.Switch, _: Any) -> None:
        if self.window.updating:
            return
        self.window.send(eraser_button=pencild.EraserButtonMode.BUTTON if switch.get_active()
                         else pencild.EraserButtonMode.ERASER)

    def show_connection(self, state: str) -> None:
        """The status at the page's top: hidden while pencild answers, else why it does not."""
        if state == "connected":
            self.status_group.set_visible(False)
            return
        self.status_group.set_visible(True)
        if state == "denied":
            self.status.set_icon_name("dialog-warning-symbolic")
            self.status.set_title("You may not use pencild")
            # The description is markup: the user's name and the socket's path are escaped.
            user = GLib.markup_escape_text(os.environ.get("USER", "USER"))
            self.status.set_description(DENIED_ADVICE.format(user=user))
        else:
            self.status.set_icon_name("input-tablet-symbolic")
            self.status.set_title("pencild is not running")
            self.status.set_description(NOT_RUNNING_ADVICE.format(
                path=GLib.markup_escape_text(self.window.connection.path)))

    def show_preferences(self, preferences: pencild.Preferences) -> None:
        if preferences.eraser_button is not None:
            self.eraser_switch.set_active(preferences.eraser_button is pencild.EraserButtonMode.BUTTON)

    def update_sensitivity(self, connected: bool) -> None:
        self.eraser_switch.set_sensitive(connected)
        self.update_eraser_group()

    def update_eraser_group(self) -> None:
        """The eraser button's switch, for a pen that has an eraser (an end, or a button that
        reports one); kept while the switch is on, so that it can be turned off again."""
        connected = self.window.connection_state() == "connected"
        has_eraser = any(pencild.ToolType.ERASER in device.tools for device in self.window.devices)
        self.eraser_group.set_visible(connected and (has_eraser or self.eraser_switch.get_active()))

    def follow(self, event: pencild.Event) -> str:
        """Notes the pens that come near, and says what the event changed: DEVICES_CHANGED,
        PEN_SEEN, or "" for nothing."""
        kind = event.type
        if kind in (pencild.EventType.DEVICE_ADDED, pencild.EventType.DEVICE_REMOVED):
            self.unnamed_tools.pop(event.device or "", None)
            return DEVICES_CHANGED
        if kind is pencild.EventType.PROXIMITY_IN and event.stylus is not None:
            seen = self.known_styli.setdefault(event.device or "", set())
            return DEVICES_CHANGED if event.stylus.name not in seen else ""
        if kind is pencild.EventType.PROXIMITY_IN and event.tool is not None and not event.synthesized:
            # A pen libwacom has no name for is seen all the same (most Huion, XP-Pen and
            # Gaomon pens, the demo pen): by its serial, one pen at both ends.
            tools = self.unnamed_tools.setdefault(event.device or "", {}).setdefault(event.tool.serial, set())
            if str(event.tool.type) not in tools:
                tools.add(str(event.tool.type))
                return PEN_SEEN
        return ""

    def show_devices(self, devices: List[pencild.Device]) -> None:
        """A group for each tablet: its pens (named by libwacom, or seen without a name), its
        buttons and its device; the eraser button's group stays last."""
        for group in self.pen_groups:
            self.page.remove(group)
        self.pen_groups = []
        if self.window.connection_state() != "connected":
            self.unnamed_tools.clear()
            return
        groups: List[Adw.PreferencesGroup] = []
        if not devices:
            group = Adw.PreferencesGroup(title="Pens")
            group.add(Adw.ActionRow(title="No pens attached", subtitle="Plug in a tablet: it shows here at once"))
            groups.append(group)
        for device in devices:
            self.known_styli[device.id] = {stylus.name for stylus in device.styli}
            kind = "Display tablet" if device.direct else "Tablet"
            size = ""
            if device.width_millimeters and device.height_millimeters:
                size = f", {device.width_millimeters:.0f} × {device.height_millimeters:.0f} mm"
            # A group's title is markup, with no way to turn that off: the name is escaped.
            group = Adw.PreferencesGroup(title=GLib.markup_escape_text(device.model or device.name),
                                         description=f"{kind}{size}")
            for stylus in device.styli:
                buttons = f"{stylus.buttons} button{'s' if stylus.buttons != 1 else ''}"
                eraser = STYLUS_ERASERS.get(str(stylus.eraser), str(stylus.eraser))
                group.add(plain_row(stylus.name, f"Pen: {buttons}, {eraser}"))
            unnamed = self.unnamed_tools.get(device.id, {})
            for serial, tools in sorted(unnamed.items()):
                ends = " (both ends)" if "eraser" in tools and len(tools) > 1 else \
                    " (its eraser end)" if tools == {"eraser"} else ""
                group.add(plain_row("Pen", f"Seen{ends}; Linux’s tablet database has no name for it, so its "
                                           f"buttons are the tablet’s below"))
            if not device.styli and not unnamed:
                group.add(Adw.ActionRow(title="Pen not seen yet",
                                        subtitle="Bring the pen near the tablet to see it here"))
            buttons = ", ".join(BUTTON_NAMES.get(str(button), str(button)) for button in device.buttons) or "None"
            group.add(plain_row("Buttons", buttons))
            group.add(plain_row("Device", f"{device.name} ({device.id})"))
            groups.append(group)
        for group in groups:
            self.page.remove(self.eraser_group)
            self.page.add(group)
            self.page.add(self.eraser_group)
        self.pen_groups = groups
