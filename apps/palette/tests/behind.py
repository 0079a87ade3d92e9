#!/usr/bin/python3
"""behind.py LOG: the app in front that the palette opens over, a window filling most of the
screen that writes each press and key it receives to LOG, one line each ("press X Y",
"key NAME"), and "ready" once it is shown."""

from __future__ import annotations

import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402


def main() -> int:
    log = open(sys.argv[1], "a", buffering=1)
    window = Gtk.Window(title="Behind", decorated=False)
    window.set_default_size(1240, 760)
    window.set_child(Gtk.Label(label="The app in front"))
    clicks = Gtk.GestureClick(button=0)
    clicks.connect("pressed", lambda _g, _n, x, y: log.write(f"press {round(x)} {round(y)}\n"))
    window.add_controller(clicks)
    keys = Gtk.EventControllerKey()
    keys.connect("key-pressed", lambda _c, keyval, _code, _state: log.write(f"key {Gdk.keyval_name(keyval)}\n")
                 and False)
    window.add_controller(keys)
    window.connect("map", lambda _w: log.write("ready\n"))
    loop = GLib.MainLoop()
    window.connect("close-request", lambda _w: loop.quit() or False)
    window.present()
    loop.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
