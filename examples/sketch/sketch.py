#!/usr/bin/env python3
"""sketch: a GTK 4 canvas that draws with the pen and follows pencild's gestures.

- GTK's own pen input draws (Gtk.GestureStylus: pressure sets the width; a mouse draws too);
- a double-tap whose action is switchEraser switches between the pen and the eraser
  (switchPrevious: back to the tool before), showColorPalette shows the palette;
- a squeeze that ends with showColorPalette or showContextualPalette shows the palette;
- a hovering pen (pencild's hover events) previews the brush where it would touch;
- the user's preferences are shown, and kept current;
- the window claims the pen's focus (SetFocus) while it is active and gives it up when it
  is not; it acts on a gesture only when its focus is `this` or `none`.

pencild is read through the GLib main loop (its descriptor is watched, never waited on).
What the demo does is logged, one line each, to stdout or --log FILE.

Usage: sketch.py [--socket PATH] [--log FILE]
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from typing import Any, List, Optional, TextIO, Tuple

try:
    import pencild
except ImportError:  # run from the repository, without installing the package
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python", "src"))
    import pencild

import gi

gi.require_version("Gdk", "4.0")
gi.require_version("Gtk", "4.0")
from gi.repository import Gdk, Gio, GLib, Gtk  # noqa: E402

PALETTE = [("black", (0.1, 0.1, 0.1)), ("red", (0.85, 0.15, 0.15)), ("green", (0.1, 0.6, 0.2)),
           ("blue", (0.15, 0.3, 0.85)), ("orange", (0.95, 0.55, 0.1))]
PEN_WIDTH = 8.0
ERASER_WIDTH = 28.0
ACTING_FOCUS = (pencild.Focus.THIS, pencild.Focus.NONE)


class Log:
    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.started = time.monotonic()

    def __call__(self, message: str) -> None:
        self.stream.write(f"{time.monotonic() - self.started:8.3f} {message}\n")
        self.stream.flush()


class PencildSource:
    """pencild's events in the GLib main loop: the monitor's descriptor is watched and
    dispatch() (which never blocks) runs when it is readable, or when a reconnection is due."""

    def __init__(self, monitor: pencild.Monitor, handle: Any, log: Log) -> None:
        self.monitor = monitor
        self.handle = handle
        self.log = log
        self.timer: Optional[int] = None
        self.watch = GLib.unix_fd_add_full(GLib.PRIORITY_DEFAULT, monitor.fileno(), GLib.IOCondition.IN,
                                           self.readable)

    def readable(self, *_: Any) -> bool:
        self.run()
        return True

    def due(self) -> bool:
        self.timer = None
        self.run()
        return False

    def run(self) -> None:
        was_connected = self.monitor.connected
        try:
            events = self.monitor.dispatch()
        except pencild.PencildError as error:
            self.log(f"pencild: {error}")
            GLib.source_remove(self.watch)
            return
        for event in events:
            self.handle(event)
        if self.monitor.connected != was_connected:
            self.log("pencild: connected again" if self.monitor.connected else "pencild: went away, waiting for it")
        timeout = self.monitor.timeout()
        if timeout is not None and self.timer is None:
            self.timer = GLib.timeout_add(max(int(timeout * 1000), 1), self.due)


class Sketch(Gtk.ApplicationWindow):  # type: ignore[misc]
    def __init__(self, application: Gtk.Application, socket_path: Optional[str], log: Log) -> None:
        super().__init__(application=application, title="pencild sketch")
        self.set_default_size(900, 600)
        self.log = log
        self.tool = "pen"
        self.previous_tool = "pen"
        self.colour = PALETTE[0]
        self.strokes: List[Tuple[str, Tuple[float, float, float], List[Tuple[float, float, float]]]] = []
        self.current: Optional[List[Tuple[float, float, float]]] = None
        self.hover: Optional[Tuple[float, float]] = None

        self.canvas = Gtk.DrawingArea(hexpand=True, vexpand=True)
        self.canvas.set_draw_func(self.draw)
        stylus = Gtk.GestureStylus()
        stylus.connect("down", self.stylus_down)
        stylus.connect("motion", self.stylus_motion)
        stylus.connect("up", self.stylus_up)
        self.canvas.add_controller(stylus)
        drag = Gtk.GestureDrag()  # a mouse draws too, at half pressure
        drag.connect("drag-begin", self.drag_begin)
        drag.connect("drag-update", self.drag_update)
        drag.connect("drag-end", lambda *_: self.end_stroke())
        self.canvas.add_controller(drag)

        self.status = Gtk.Label(xalign=0)
        self.preferences = Gtk.Label(xalign=0, wrap=True)
        self.palette = Gtk.Revealer()
        buttons = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=4)
        for name, rgb in PALETTE:
            button = Gtk.Button(label=name)
            button.connect("clicked", self.pick_colour, (name, rgb))
            buttons.append(button)
        self.palette.set_child(buttons)
        side = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8, margin_start=8, margin_end=8,
                       margin_top=8, width_request=220)
        for widget in (self.status, Gtk.Label(label="Preferences", xalign=0), self.preferences, self.palette):
            side.append(widget)
        box = Gtk.Box()
        box.append(self.canvas)
        box.append(side)
        self.set_child(box)
        self.update_status()

        # Calls wait at most a second: a daemon that is still starting is asked again when
        # its first events arrive.
        self.client = pencild.Client(socket_path, timeout=1.0)
        self.preferences_shown = False
        self.focus_wanted = False
        self.focus_sent: Optional[bool] = None
        self.show_preferences()
        # The client's monitor claims the focus again from a daemon that restarted.
        self.monitor = self.client.monitor(events=[
            "deviceAdded", "deviceRemoved", "hover", "proximityOut", "doubleTap", "squeeze", "preferencesChanged"])
        self.source = PencildSource(self.monitor, self.pencild_event, log)
        self.connect("notify::is-active", self.active_changed)
        self.connect("close-request", self.closing)

    # --- pencild ------------------------------------------------------------------

    def active_changed(self, *_: Any) -> None:
        self.focus_wanted = bool(self.get_property("is-active"))
        self.send_focus()

    def send_focus(self) -> None:
        """Tells pencild whether the window is active; a daemon that did not answer is told
        again when its events arrive."""
        active = self.focus_wanted
        try:
            self.client.set_focused(active)
            self.focus_sent = active
            self.log(f"focus: {'claimed' if active else 'released'} (window {'active' if active else 'inactive'})")
        except pencild.MethodNotFound:
            self.focus_sent = active
            self.log("focus: this pencild has no SetFocus; gestures come with focus none")
        except pencild.PencildError as error:
            self.focus_sent = None
            self.log(f"focus: {error}")

    def show_preferences(self, preferences: Optional[pencild.Preferences] = None) -> None:
        try:
            preferences = preferences or self.client.get_preferences()
        except pencild.PencildError as error:
            self.preferences.set_text(f"(unavailable: {error})")
            self.log(f"preferences: unavailable: {error}")
            return
        self.preferences_shown = True
        text = "\n".join(f"{name}: {getattr(preferences, name)}" for name in (
            "double_tap_action", "squeeze_action", "tap_button", "squeeze_button", "tap_max_duration",
            "double_tap_interval", "long_press_duration", "double_tap_slop"))
        self.preferences.set_text(text)
        self.log(f"preferences: doubleTapAction={preferences.double_tap_action} "
                 f"squeezeAction={preferences.squeeze_action}")

    def pencild_event(self, event: pencild.Event) -> None:
        kind = event.type
        if event.synthesized:
            self.preferences_shown = False  # pencild went away: ask the next one
        else:
            if not self.preferences_shown:
                self.show_preferences()
            if self.focus_sent is None and self.focus_wanted:
                self.send_focus()
        if kind is pencild.EventType.DEVICE_ADDED and event.device_info is not None:
            self.log(f"pen: {event.device_info.name} ({event.device})")
        elif kind is pencild.EventType.DEVICE_REMOVED:
            self.log(f"pen: {event.device} gone{' (pencild went away)' if event.synthesized else ''}")
            self.set_hover(None)
        elif kind is pencild.EventType.HOVER and event.pose is not None:
            self.set_hover(None if event.phase is pencild.Phase.ENDED else (event.pose.x, event.pose.y))
        elif kind is pencild.EventType.PROXIMITY_OUT:
            self.set_hover(None)
        elif kind is pencild.EventType.PREFERENCES_CHANGED:
            self.show_preferences(event.preferences)
        elif kind is pencild.EventType.DOUBLE_TAP or (kind is pencild.EventType.SQUEEZE
                                                      and event.phase is pencild.Phase.ENDED):
            self.gesture(event)

    def gesture(self, event: pencild.Event) -> None:
        focus = event.focus or pencild.Focus.NONE
        what = f"{event.type} {event.action}"
        if focus not in ACTING_FOCUS:
            self.log(f"ignored: {what} (focus {focus})")
            return
        action = event.action
        if action is pencild.Action.SWITCH_ERASER and event.type is pencild.EventType.DOUBLE_TAP:
            self.set_tool("pen" if self.tool == "eraser" else "eraser", f"{what}, focus {focus}")
        elif action is pencild.Action.SWITCH_PREVIOUS and event.type is pencild.EventType.DOUBLE_TAP:
            self.set_tool(self.previous_tool, f"{what}, focus {focus}")
        elif action in (pencild.Action.SHOW_COLOR_PALETTE, pencild.Action.SHOW_CONTEXTUAL_PALETTE):
            self.palette.set_reveal_child(True)
            self.log(f"palette: shown ({what}, focus {focus})")
        else:
            self.log(f"nothing to do: {what} (focus {focus})")

    def set_tool(self, tool: str, why: str) -> None:
        self.previous_tool, self.tool = self.tool, tool
        self.update_status()
        self.log(f"tool: {tool} ({why})")

    def set_hover(self, where: Optional[Tuple[float, float]]) -> None:
        if where is not None and self.hover is None:
            self.log("hover: preview shown")
        self.hover = where
        self.canvas.queue_draw()

    def pick_colour(self, _: Any, colour: Tuple[str, Tuple[float, float, float]]) -> None:
        self.colour = colour
        self.palette.set_reveal_child(False)
        self.update_status()
        self.log(f"colour: {colour[0]}")

    def update_status(self) -> None:
        self.status.set_text(f"tool: {self.tool}\ncolour: {self.colour[0]}")

    def closing(self, *_: Any) -> bool:
        GLib.source_remove(self.source.watch)
        self.monitor.close()
        self.client.close()
        return False

    # --- drawing --------------------------------------------------------------------

    def width(self, pressure: float) -> float:
        return (ERASER_WIDTH if self.tool == "eraser" else PEN_WIDTH) * max(0.1, min(pressure, 1.0))

    def begin_stroke(self, x: float, y: float, pressure: float) -> None:
        rgb = (1.0, 1.0, 1.0) if self.tool == "eraser" else self.colour[1]
        self.current = [(x, y, self.width(pressure))]
        self.strokes.append((self.tool, rgb, self.current))
        self.canvas.queue_draw()

    def add_point(self, x: float, y: float, pressure: float) -> None:
        if self.current is not None:
            self.current.append((x, y, self.width(pressure)))
            self.canvas.queue_draw()

    def end_stroke(self) -> None:
        self.current = None

    @staticmethod
    def pressure(gesture: Gtk.GestureStylus) -> float:
        found, value = gesture.get_axis(Gdk.AxisUse.PRESSURE)
        return float(value) if found else 0.5

    def stylus_down(self, gesture: Gtk.GestureStylus, x: float, y: float) -> None:
        self.begin_stroke(x, y, self.pressure(gesture))

    def stylus_motion(self, gesture: Gtk.GestureStylus, x: float, y: float) -> None:
        self.add_point(x, y, self.pressure(gesture))

    def stylus_up(self, *_: Any) -> None:
        self.end_stroke()

    def drag_begin(self, gesture: Gtk.GestureDrag, x: float, y: float) -> None:
        device = gesture.get_device()
        if device is not None and device.get_source() == Gdk.InputSource.PEN:
            return  # the stylus gesture draws this one, with its pressure
        self.begin_stroke(x, y, 0.5)

    def drag_update(self, gesture: Gtk.GestureDrag, dx: float, dy: float) -> None:
        found, x, y = gesture.get_start_point()
        if found:
            self.add_point(x + dx, y + dy, 0.5)

    def draw(self, _: Any, cr: Any, width: int, height: int) -> None:
        cr.set_source_rgb(1, 1, 1)
        cr.paint()
        cr.set_line_cap(1)  # round
        for _tool, rgb, points in self.strokes:
            cr.set_source_rgb(*rgb)
            for (x0, y0, w0), (x1, y1, w1) in zip(points, points[1:]):
                cr.set_line_width((w0 + w1) / 2)
                cr.move_to(x0, y0)
                cr.line_to(x1, y1)
                cr.stroke()
        if self.hover is not None:
            x, y = self.hover[0] * width, self.hover[1] * height
            cr.set_source_rgba(*(self.colour[1] if self.tool == "pen" else (0.5, 0.5, 0.5)), 0.6)
            cr.arc(x, y, self.width(0.5) / 2 + 1, 0, 6.2832)
            cr.stroke()


def main() -> int:
    parser = argparse.ArgumentParser(description="A GTK 4 canvas following pencild's gestures")
    parser.add_argument("--socket", help="pencild's socket (default: as pencilctl finds it)")
    parser.add_argument("--log", help="write the log to FILE instead of stdout")
    options = parser.parse_args()
    stream = open(options.log, "a", encoding="utf-8") if options.log else sys.stdout
    log = Log(stream)
    application = Gtk.Application(application_id="org.pencild.Sketch", flags=Gio.ApplicationFlags.NON_UNIQUE)

    def activate(app: Gtk.Application) -> None:
        try:
            window = Sketch(app, options.socket, log)
        except pencild.PencildError as error:
            log(f"pencild: {error}")
            app.quit()
            return
        window.present()
        log("window: shown")

    application.connect("activate", activate)
    for number in (signal.SIGINT, signal.SIGTERM):  # end cleanly: the focus is given up, the monitor closed
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, number, lambda: application.quit() or False)
    return int(application.run([sys.argv[0]]))


if __name__ == "__main__":
    sys.exit(main())
