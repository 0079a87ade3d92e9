"""A GTK 4 app for the desktop tier: one window titled and identified by its application id
(argv[1]), the Wayland app_id or, under GDK_BACKEND=x11, the X11 WM_CLASS. It writes
"shown" to argv[2] once its window is mapped, "active" to argv[2] with ".active" added once
the compositor first makes it the active window, and quits on SIGTERM. On SIGUSR1 it shows the
text of argv[2] with ".note" added and saves its window, as it is drawn, as argv[2] with
".png" added (then ".png.done"). With DESKTOP_TEST_FULLSCREEN set, the window fills the screen.

With a third argument, the window also shows the last pen event it received and a text field
for keys, and writes each pen event and each change of its text
field to that file, a JSON object a line: "pen" events with GDK's type, time (ms, the
compositor's), tool, pressure and button; "text" with the field's text, once drawn. It fills the window
so that wherever the pen is over it, the app receives it."""
import json
import os
import signal
import sys
import time

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk, Gio, GLib, Gtk  # noqa: E402

app_id, shown_path = sys.argv[1], sys.argv[2]
events_path = sys.argv[3] if len(sys.argv) > 3 else None
# Under X11 the WM_CLASS is made from the program's name: the app id, as on Wayland.
GLib.set_prgname(app_id)
app = Gtk.Application(application_id=app_id, flags=Gio.ApplicationFlags.NON_UNIQUE)
note = Gtk.Label(label="")
last_pen = Gtk.Label(label="no pen yet")


def mapped(_window: Gtk.Window) -> None:
    with open(shown_path, "w", encoding="utf-8") as file:
        file.write("shown\n")


def active_changed(window: Gtk.Window, _property: object) -> None:
    if window.is_active() and not os.path.exists(shown_path + ".active"):
        with open(shown_path + ".active", "w", encoding="utf-8") as file:
            file.write("active\n")


def save(window: Gtk.Window) -> None:
    """The window's content as it is drawn now, rendered by the window's own renderer."""
    content = window.get_child()
    width, height = content.get_width(), content.get_height()
    snapshot = Gtk.Snapshot()
    Gtk.WidgetPaintable.new(content).snapshot(snapshot, width, height)
    node = snapshot.to_node()
    if node is None:
        raise RuntimeError("the window drew nothing")
    window.get_native().get_renderer().render_texture(node, None).save_to_png(shown_path + ".png")
    with open(shown_path + ".png.done", "w", encoding="utf-8") as file:
        file.write(f"{width}x{height}\n")


def shoot(window: Gtk.Window) -> bool:
    with open(shown_path + ".note", encoding="utf-8") as file:
        note.set_label(file.read().strip())
    # Saved once the note is drawn: after the next frame's paint.
    clock = window.get_frame_clock()

    def painted(_clock: object) -> None:
        clock.disconnect(handler)
        save(window)

    handler = clock.connect("after-paint", painted)
    window.queue_draw()
    return GLib.SOURCE_CONTINUE


PEN_EVENTS = {
    Gdk.EventType.PROXIMITY_IN: "proximityIn",
    Gdk.EventType.PROXIMITY_OUT: "proximityOut",
    Gdk.EventType.MOTION_NOTIFY: "motion",
    Gdk.EventType.BUTTON_PRESS: "press",
    Gdk.EventType.BUTTON_RELEASE: "release",
}


def write_event(record: dict) -> None:
    """`record`, with when the app received it (CLOCK_MONOTONIC, ms: the test's clock too)."""
    record["received"] = time.clock_gettime(time.CLOCK_MONOTONIC) * 1000
    with open(events_path, "a", encoding="utf-8") as file:
        file.write(json.dumps(record) + "\n")


def pen_event(controller: Gtk.EventControllerLegacy, _event: object) -> bool:
    """Every event of a tablet tool, as GTK gives it to the window: what a drawing app reads.
    (The signal's own argument reaches Python as None: the controller hands the event out.)"""
    event = controller.get_current_event()
    kind = PEN_EVENTS.get(event.get_event_type())
    tool = event.get_device_tool()
    if kind is None or tool is None:
        return False
    has_pressure, pressure = event.get_axis(Gdk.AxisUse.PRESSURE)
    record = {"kind": "pen", "type": kind, "time": event.get_time(),
              "tool": tool.get_tool_type().value_nick, "pressure": pressure if has_pressure else None}
    if kind in ("press", "release"):
        record["button"] = event.get_button()
    write_event(record)
    # Shown for the screenshots, but not for each move: a label changed 50 times a second redraws
    # the whole window as often, and under emulation on a busy host those frames held the app
    # away from its socket for seconds.
    if kind != "motion":
        last_pen.set_label(" ".join(f"{key} {value}" for key, value in record.items() if key not in ("kind", "received")))
    return False


def text_changed(field: Gtk.Entry) -> None:
    """The field's new text, written once the window has drawn it: what a person sees, and what
    a screenshot taken then shows."""
    text = field.get_text()
    clock = field.get_frame_clock()
    if clock is None:
        write_event({"kind": "text", "text": text})
        return

    def painted(_clock: object) -> None:
        clock.disconnect(handler)
        write_event({"kind": "text", "text": text})

    handler = clock.connect("after-paint", painted)
    field.queue_draw()


def activate(application: Gtk.Application) -> None:
    window = Gtk.ApplicationWindow(application=application, title=app_id)
    window.set_default_size(480, 320)
    # The box fills the window, so that its picture is the whole window's content.
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, homogeneous=True)
    box.append(Gtk.Label(label=f"{app_id} (GTK {Gtk.get_major_version()}.{Gtk.get_minor_version()})"))
    box.append(note)
    if events_path is not None:
        entry = Gtk.Entry(placeholder_text="keys typed here")
        entry.connect("changed", text_changed)
        box.append(entry)
        box.append(last_pen)
        # In the capture phase: the window sees every pen event before a child could take it.
        pen = Gtk.EventControllerLegacy(propagation_phase=Gtk.PropagationPhase.CAPTURE)
        pen.connect("event", pen_event)
        window.add_controller(pen)
    window.set_child(box)
    if events_path is not None:
        window.set_focus(entry)
    window.connect("map", mapped)
    window.connect("notify::is-active", active_changed)
    if os.environ.get("DESKTOP_TEST_FULLSCREEN"):
        window.fullscreen()  # the whole screen, wherever the pen is over it
    window.present()
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, shoot, window)


app.connect("activate", activate)
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, lambda: app.quit() or GLib.SOURCE_REMOVE)
sys.exit(app.run([sys.argv[0]]))
