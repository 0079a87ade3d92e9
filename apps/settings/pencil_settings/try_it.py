"""The Try it page: each gesture as pencild recognises it, a double-tap that was missed and
why (tap_watcher.py), what keeps a gesture from coming with the pens attached, where the
pen hovers, and pencild's demo pen for a person with no pen at hand."""

from __future__ import annotations

import math
from typing import Any, List, Optional, Tuple

import pencild
from gi.repository import Adw, GLib, Gtk

from .model import BUTTON_NAMES, TIMINGS, button_lack
from .page import Window
from .tap_watcher import TapWatcher, Verdict
from .widgets import accessible_label, plain_row, warning_row


class TryPage:
    TRY_YOUR_PEN = "Hover over the tablet, double-tap and squeeze: each gesture shows below as pencild recognises it"
    TRY_THE_DEMO_PEN = "The demo pen’s gestures show below as pencild recognises them, under your settings"

    def __init__(self, window: Window) -> None:
        self.window = window
        self.watcher = TapWatcher()
        self.flush_timer: Optional[int] = None
        self.hover: Optional[Tuple[float, float]] = None
        self.page = Adw.PreferencesPage(title="Try it", icon_name="document-edit-symbolic", name="try")
        # What stops a gesture before the pen does anything: the settings against the pens.
        self.notes = Adw.PreferencesGroup(title="What will not be recognised")
        self.notes.set_visible(False)
        self.note_rows: List[Adw.ActionRow] = []
        self.page.add(self.notes)
        # pencild's demo pen, for a person with no pen at hand: it makes a gesture when asked,
        # as they would make it with their buttons and timing (PlayGesture).
        self.demo_group = Adw.PreferencesGroup(
            title="No pen at hand",
            description="pencild’s demo pen hovers and draws by itself; these make it double-tap or squeeze "
                        "the way you would, with your buttons and timing")
        row = Adw.ActionRow(title="The demo pen", subtitle="Makes the gesture once, then draws on")
        for title, gesture in (("Double-tap", "doubleTap"), ("Squeeze", "squeeze")):
            button = Gtk.Button(label=title, valign=Gtk.Align.CENTER)
            button.connect("clicked", lambda _, gesture=gesture: self.play_demo_gesture(gesture))
            accessible_label(button, f"Make the demo pen {title.lower()}")
            row.add_suffix(button)
        self.demo_group.add(row)
        self.demo_group.set_visible(False)
        self.page.add(self.demo_group)
        self.pen_group = Adw.PreferencesGroup(title="Try your pen", description=self.TRY_YOUR_PEN)
        frame = Gtk.Frame()
        self.area = Gtk.DrawingArea(content_height=180, hexpand=True)
        accessible_label(self.area, "Where the pen is")
        self.area.set_draw_func(self.draw_area)
        frame.set_child(self.area)
        self.pen_group.add(frame)
        self.page.add(self.pen_group)
        recognised = Adw.PreferencesGroup(title="Recognised")
        self.recognised = Gtk.ListBox(css_classes=["boxed-list"], selection_mode=Gtk.SelectionMode.NONE)
        accessible_label(self.recognised, "Gestures recognised")
        self.nothing_yet = Adw.ActionRow(title="Nothing yet", subtitle="Your gestures will show here")
        self.recognised.append(self.nothing_yet)
        recognised.add(self.recognised)
        clear = Gtk.Button(label="Clear", valign=Gtk.Align.CENTER, css_classes=["flat"])
        accessible_label(clear, "Clear the gestures")
        clear.connect("clicked", lambda *_: self.clear_tries())
        recognised.set_header_suffix(clear)
        self.page.add(recognised)
        self.rows: List[Adw.ActionRow] = []       # newest first
        self.last: Optional[Verdict] = None

    def demo_pen(self) -> Optional[str]:
        """pencild's demo pen, when one is attached (its ids are demo0, demo1, ...)."""
        return next((device.id for device in self.window.devices if device.id.startswith("demo")), None)

    def play_demo_gesture(self, gesture: str) -> None:
        demo = self.demo_pen()
        if demo is None:
            self.window.toast("The demo pen is gone")
            return
        try:
            self.window.connection.client.call("org.pencild.Pen.PlayGesture", {"gesture": gesture, "device": demo})
        except pencild.PencildError as error:
            self.window.toast(f"The demo pen cannot: {error}")

    def show_devices(self, devices: List[pencild.Device]) -> None:
        demo = self.demo_pen() is not None and self.window.connection_state() == "connected"
        self.demo_group.set_visible(demo)
        # With only the demo pen, there is no tablet to hover over.
        only_demo = demo and all(device.id.startswith("demo") for device in devices)
        self.pen_group.set_description(self.TRY_THE_DEMO_PEN if only_demo else self.TRY_YOUR_PEN)
        self.watcher.devices = {device.id: device for device in devices}

    def show_preferences(self, preferences: pencild.Preferences) -> None:
        self.watcher.preferences = preferences

    def update_notes(self, connected: bool) -> None:
        """What keeps a gesture from coming, while pencild answers."""
        for row in self.note_rows:
            self.notes.remove(row)
        self.note_rows = [warning_row(title, detail) for title, detail in
                          (self.gesture_problems() if connected else [])]
        for row in self.note_rows:
            self.notes.add(row)
        self.notes.set_visible(bool(self.note_rows))

    def gesture_problems(self) -> List[Tuple[str, str]]:
        """What keeps a gesture from being recognised, before the pen does anything: the
        settings against the pens attached. Each as a title and what to do."""
        preferences = self.window.preferences
        tap = str(preferences.tap_button or "stylus")
        squeeze = str(preferences.squeeze_button or "stylus2")
        eraser_button = preferences.eraser_button is pencild.EraserButtonMode.BUTTON
        devices = self.window.devices
        problems: List[Tuple[str, str]] = []
        if not devices:
            problems.append(("No pen is attached", "Plug in a tablet: it shows on the Pens page"))
        if tap == "none":
            problems.append(("The double-tap is off", "Choose its button on the Double-tap page"))
        else:
            lack = button_lack(tap, devices, eraser_button)
            if lack is not None:
                problems.append(("No double-tap will be recognised",
                                 f"The double-tap button is the {BUTTON_NAMES[tap].lower()}, but {lack}"))
        if squeeze == "none":
            problems.append(("The squeeze is off", "Choose its button on the Squeeze page"))
        elif squeeze != "longPress":
            lack = button_lack(squeeze, devices, eraser_button)
            if lack is not None and squeeze == "eraser" and "not a button" in lack:
                problems.append(("No squeeze will be recognised",
                                 f"The squeeze button is the {BUTTON_NAMES[squeeze].lower()}, but {lack}"))
            elif lack is not None and tap == "none":
                problems.append(("No squeeze will be recognised",
                                 f"The squeeze button is the {BUTTON_NAMES[squeeze].lower()}, but {lack}"))
            elif lack is not None:
                problems.append(("The squeeze is a long press",
                                 f"The squeeze button is the {BUTTON_NAMES[squeeze].lower()}, but {lack}: hold the "
                                 f"double-tap button for {preferences.long_press_duration or 500} ms instead"))
        for timing in TIMINGS:
            value = getattr(preferences, timing.field)
            if value is not None and value < timing.low:
                problems.append((f"{timing.title}: {timing.text(value)}",
                                 f"Too short: {timing.too_low}. Choose from {timing.text(timing.low)} to "
                                 f"{timing.text(timing.high)} on the Timing page"))
        return problems

    def follow(self, event: pencild.Event) -> None:
        """Where the pen hovers, and what the watcher makes of the event."""
        kind = event.type
        if kind is pencild.EventType.HOVER and event.pose is not None:
            self.set_hover(None if event.phase is pencild.Phase.ENDED else (event.pose.x, event.pose.y))
        elif kind in (pencild.EventType.PROXIMITY_OUT, pencild.EventType.DEVICE_REMOVED):
            self.set_hover(None)
        if not event.synthesized:
            for verdict in self.watcher.event(event):
                self.add_try(verdict)

    def events_followed(self) -> None:
        """After a batch of events: a second press with no double-tap in its frame is judged
        once the frame is over."""
        if self.watcher.pending is not None and self.flush_timer is None:
            self.flush_timer = GLib.timeout_add(100, self.flush_tries)

    def flush_tries(self) -> bool:
        self.flush_timer = None
        for verdict in self.watcher.flush():
            self.add_try(verdict)
        return False

    def add_try(self, verdict: Verdict) -> None:
        # A press no gesture uses, pressed again, says the same: once is enough.
        if self.rows and verdict.kind in ("unused", "eraserTool") and self.last == verdict:
            return
        self.last = verdict
        if self.nothing_yet.get_parent() is not None:
            self.recognised.remove(self.nothing_yet)
        icon = {"doubleTap": "emblem-ok-symbolic", "squeeze": "emblem-ok-symbolic"}.get(verdict.kind,
                                                                                        "dialog-warning-symbolic")
        row = plain_row(verdict.title, verdict.detail)
        row.add_prefix(Gtk.Image(icon_name=icon))
        self.recognised.prepend(row)
        self.rows.insert(0, row)
        while len(self.rows) > 20:
            self.recognised.remove(self.rows.pop())

    def clear_tries(self) -> None:
        for row in self.rows:
            self.recognised.remove(row)
        self.rows = []
        if self.nothing_yet.get_parent() is None:
            self.recognised.append(self.nothing_yet)

    def set_hover(self, where: Optional[Tuple[float, float]]) -> None:
        if where != self.hover:
            self.hover = where
            self.area.queue_draw()

    def draw_area(self, area: Gtk.DrawingArea, cr: Any, width: int, height: int) -> None:
        colour = area.get_style_context().get_color()
        cr.set_source_rgba(colour.red, colour.green, colour.blue, 0.35)
        cr.select_font_face("Sans")
        cr.set_font_size(14)
        text = "Hover here with the pen" if self.hover is None else ""
        extents = cr.text_extents(text)
        cr.move_to((width - extents.width) / 2, (height + extents.height) / 2)
        cr.show_text(text)
        if self.hover is not None:
            cr.set_source_rgba(0.21, 0.52, 0.89, 0.8)
            cr.arc(self.hover[0] * width, self.hover[1] * height, 8, 0, 2 * math.pi)
            cr.fill()
