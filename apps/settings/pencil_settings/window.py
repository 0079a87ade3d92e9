"""The window: its pages in a view stack, a banner while pencild does not answer, and
pencild's preferences, pens and events handed to the pages as they change."""

from __future__ import annotations

from typing import Any, List, Optional

import pencild
from gi.repository import Adw, GLib, GObject, Gtk

from .apps import AppsPage
from .connection import Connection
from .gestures import GesturePages
from .pens import DEVICES_CHANGED, PEN_SEEN, PensPage
from .timing import TimingPage
from .try_it import TryPage
from .widgets import accessible_label

APPLICATION_ID = "org.pencild.Settings"


class SettingsWindow(Adw.ApplicationWindow):  # type: ignore[misc]
    """Pages in a view stack under a header bar, as Adw.PreferencesWindow lays them out (whose
    search entry, unused here, has no accessible name in libadwaita 1.2)."""

    def __init__(self, application: Adw.Application, socket_path: Optional[str]) -> None:
        super().__init__(application=application, title="Pen")
        self.set_icon_name(APPLICATION_ID)
        self.stack = Adw.ViewStack(vexpand=True)
        header = Adw.HeaderBar()
        switcher = Adw.ViewSwitcherTitle(stack=self.stack, title="Pen")
        header.set_title_widget(switcher)
        bar = Adw.ViewSwitcherBar(stack=self.stack)
        switcher.bind_property("title-visible", bar, "reveal", GObject.BindingFlags.SYNC_CREATE)
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
        box.append(header)
        box.append(self.build_banner())
        box.append(self.stack)
        box.append(bar)
        self.toasts = Adw.ToastOverlay(child=box)
        self.set_content(self.toasts)
        self.preferences = pencild.Preferences()
        self.updating = False
        self.devices: List[pencild.Device] = []
        self.focus_claimed = False

        self.pens = PensPage(self)
        self.gestures = GesturePages(self)
        self.timing = TimingPage(self)
        self.apps = AppsPage(self)
        self.try_it = TryPage(self)
        for page in (self.pens.page, self.gestures.tap_page, self.gestures.squeeze_page, self.timing.page,
                     self.apps.page, self.try_it.page):
            self.stack.add_titled_with_icon(page, page.get_name(), page.get_title(), page.get_icon_name())
        self.stack.connect("notify::visible-child", lambda *_: self.page_shown())
        self.connect("notify::is-active", lambda *_: self.update_focus())
        self.connect("close-request", self.closing)

        self.connection = Connection(socket_path, self.pencild_events, self.pencild_state)
        self.connection.start()

    def build_banner(self) -> Gtk.Widget:
        """While pencild does not answer, every page but Pens (which has the whole story)
        says at its top why its settings are greyed (libadwaita 1.2 has no AdwBanner)."""
        self.banner = Gtk.Box(spacing=12, css_classes=["pencil-banner"])
        self.banner.append(Gtk.Image(icon_name="dialog-warning-symbolic"))
        self.banner_label = Gtk.Label(wrap=True, xalign=0, hexpand=True)
        self.banner.append(self.banner_label)
        button = Gtk.Button(label="What to do", valign=Gtk.Align.CENTER)
        accessible_label(button, "Show what to do on the Pens page")
        button.connect("clicked", lambda *_: self.set_visible_page_name("pens"))
        self.banner.append(button)
        self.banner.set_visible(False)
        css = Gtk.CssProvider()
        rule = ".pencil-banner { padding: 6px 12px; background-color: alpha(@warning_color, 0.2); }"
        if hasattr(css, "load_from_string"):  # GTK 4.12 and later
            css.load_from_string(rule)
        else:
            css.load_from_data(rule.encode())
        Gtk.StyleContext.add_provider_for_display(self.get_display(), css, Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)
        return self.banner

    def update_banner(self) -> None:
        state = self.connection_state()
        if state in ("connected", ""):
            self.banner.set_visible(False)
            return
        if state == "denied":
            self.banner_label.set_text("pencild refuses you, so these settings cannot be changed")
        else:
            self.banner_label.set_text("pencild is not running, so these settings cannot be changed until it starts")
        self.banner.set_visible(self.get_visible_page() is not self.pens.page)

    # --- pencild ---------------------------------------------------------------------

    def connection_state(self) -> str:
        return self.connection.state if hasattr(self, "connection") else ""

    def pencild_state(self, state: str, message: str) -> None:
        self.update_sensitivity()
        self.update_banner()
        self.pens.update_eraser_group()
        self.pens.show_connection(state)
        if state == "connected":
            self.read_preferences()
            self.read_devices()
            self.update_focus(force=True)
        else:
            self.set_devices([])

    def read_preferences(self) -> None:
        try:
            self.show_preferences(self.connection.client.get_preferences())
        except pencild.PencildError as error:
            self.toast(f"Cannot read the settings: {error}")

    def read_devices(self) -> None:
        try:
            self.set_devices(self.connection.client.list_devices())
        except pencild.PencildError as error:
            self.toast(f"Cannot list the pens: {error}")

    def pencild_events(self, events: List[pencild.Event]) -> None:
        devices_changed = False
        pens_seen = False
        for event in events:
            if event.type is pencild.EventType.PREFERENCES_CHANGED and event.preferences is not None:
                self.show_preferences(event.preferences)
            else:
                change = self.pens.follow(event)
                devices_changed = devices_changed or change == DEVICES_CHANGED
                pens_seen = pens_seen or change == PEN_SEEN
            # After the preferences it brought: the watcher judges presses by them.
            self.try_it.follow(event)
        self.try_it.events_followed()
        if devices_changed:
            if self.connection.monitor is not None and self.connection.monitor.connected:
                self.read_devices()
            else:
                self.set_devices([])
        elif pens_seen:
            self.set_devices(self.devices)

    def set_devices(self, devices: List[pencild.Device]) -> None:
        self.devices = devices
        self.try_it.show_devices(devices)
        self.update_sensitivity()  # which buttons the pens have
        self.pens.show_devices(devices)

    def show_preferences(self, preferences: pencild.Preferences) -> None:
        self.preferences = preferences
        self.try_it.show_preferences(preferences)
        self.updating = True
        try:
            self.gestures.show_preferences(preferences)
            self.timing.show_preferences(preferences)
            self.apps.show_preferences(preferences)
            self.pens.show_preferences(preferences)
        finally:
            self.updating = False
        self.update_sensitivity()
        self.apps.update_withhold_subtitle()

    def update_sensitivity(self) -> None:
        """Each control can be used while pencild answers (set on the control itself, so that
        the accessibility tree says so too); the pages say what the settings cannot do with
        the pens attached."""
        connected = self.connection_state() == "connected"
        self.gestures.update_sensitivity(connected)
        self.timing.update_sensitivity(connected)
        self.apps.update_sensitivity(connected)
        self.pens.update_sensitivity(connected)
        self.try_it.update_notes(connected)

    def send(self, **fields: Any) -> None:
        if self.updating:
            return
        try:
            result = self.connection.client.set_preferences(pencild.Preferences(**fields))
        except pencild.PencildError as error:  # InvalidPreferences among them
            self.toast(f"Not changed: {error}")
            self.show_preferences(self.preferences)
            return
        self.show_preferences(result)

    def update_focus(self, force: bool = False) -> None:
        """While the Try it page is shown in the active window, the window holds the pen's
        focus: the gestures tried there are not performed in other apps by pencil-actions."""
        wanted = bool(self.get_property("is-active")) and self.get_visible_page() is self.try_it.page
        if wanted == self.focus_claimed and not force:
            return
        if self.connection.state != "connected":
            return
        try:
            self.connection.client.set_focused(wanted)
            self.focus_claimed = wanted
        except pencild.PencildError:
            pass

    # --- the window ------------------------------------------------------------------

    def page_shown(self) -> None:
        self.update_banner()
        self.apps.follow_actions(self.get_visible_page() is self.apps.page)
        self.update_focus()

    def get_visible_page(self) -> Gtk.Widget:
        return self.stack.get_visible_child()

    def set_visible_page_name(self, name: str) -> None:
        self.stack.set_visible_child_name(name)

    def toast(self, text: str) -> None:
        self.toasts.add_toast(Adw.Toast(title=GLib.markup_escape_text(text), timeout=6))

    def closing(self, *_: Any) -> bool:
        self.connection.close()
        return False
