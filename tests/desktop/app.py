"""A GTK 4 app for the desktop tier: one window titled and identified by its application id
(argv[1]), the Wayland app_id or, under GDK_BACKEND=x11, the X11 WM_CLASS. It writes
"shown" to argv[2] once its window is mapped, and quits on SIGTERM. On SIGUSR1 it shows the
text of argv[2] with ".note" added and saves its window, as it is drawn, as argv[2] with
".png" added (then ".png.done")."""
import signal
import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gio, GLib, Gtk  # noqa: E402

app_id, shown_path = sys.argv[1], sys.argv[2]
# Under X11 the WM_CLASS is made from the program's name: the app id, as on Wayland.
GLib.set_prgname(app_id)
app = Gtk.Application(application_id=app_id, flags=Gio.ApplicationFlags.NON_UNIQUE)
note = Gtk.Label(label="")


def mapped(_window: Gtk.Window) -> None:
    with open(shown_path, "w", encoding="utf-8") as file:
        file.write("shown\n")


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


def activate(application: Gtk.Application) -> None:
    window = Gtk.ApplicationWindow(application=application, title=app_id)
    window.set_default_size(480, 320)
    # The box fills the window, so that its picture is the whole window's content.
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, homogeneous=True)
    box.append(Gtk.Label(label=f"{app_id} (GTK {Gtk.get_major_version()}.{Gtk.get_minor_version()})"))
    box.append(note)
    window.set_child(box)
    window.connect("map", mapped)
    window.present()
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, shoot, window)


app.connect("activate", activate)
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, lambda: app.quit() or GLib.SOURCE_REMOVE)
sys.exit(app.run([sys.argv[0]]))
