"""A GTK 4 app for the desktop tier: one window titled and identified by its application id
(argv[1]), the Wayland app_id or, under GDK_BACKEND=x11, the X11 WM_CLASS. It writes
"shown" to argv[2] once its window is mapped, and quits on SIGTERM."""
import signal
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gio, GLib, Gtk  # noqa: E402

app_id, shown_path = sys.argv[1], sys.argv[2]
# Under X11 the WM_CLASS is made from the program's name: the app id, as on Wayland.
GLib.set_prgname(app_id)
app = Gtk.Application(application_id=app_id, flags=Gio.ApplicationFlags.NON_UNIQUE)


def mapped(_window: Gtk.Window) -> None:
    with open(shown_path, "w", encoding="utf-8") as file:
        file.write("shown\n")


def activate(application: Gtk.Application) -> None:
    window = Gtk.ApplicationWindow(application=application, title=app_id)
    window.set_default_size(480, 320)
    window.set_child(Gtk.Label(label=app_id))
    window.connect("map", mapped)
    window.present()


app.connect("activate", activate)
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, lambda: app.quit() or GLib.SOURCE_REMOVE)
sys.exit(app.run([sys.argv[0]]))
