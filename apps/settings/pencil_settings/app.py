"""The command line and the application: pencil-settings [--socket PATH] [--page NAME]
[--size WIDTHxHEIGHT]."""

from __future__ import annotations

import argparse
import signal
import sys

from gi.repository import Adw, Gio, GLib

from .window import APPLICATION_ID, SettingsWindow


def main() -> int:
    parser = argparse.ArgumentParser(description="The pen's settings, and a place to try its gestures")
    parser.add_argument("--socket", help="pencild's socket (default: as pencilctl finds it)")
    parser.add_argument("--page", choices=["pens", "double-tap", "squeeze", "timing", "apps", "try"],
                        help="the page to open at")
    parser.add_argument("--size", help="the window's size, WIDTHxHEIGHT")
    options = parser.parse_args()
    application = Adw.Application(application_id=APPLICATION_ID, flags=Gio.ApplicationFlags.NON_UNIQUE)

    def activate(app: Adw.Application) -> None:
        window = SettingsWindow(app, options.socket)
        width, height = 860, 860
        if options.size:
            width, height = (int(part) for part in options.size.lower().split("x", 1))
        window.set_default_size(width, height)
        if options.page:
            window.set_visible_page_name(options.page)
        window.present()

    application.connect("activate", activate)
    for number in (signal.SIGINT, signal.SIGTERM):
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, number, lambda: application.quit() or False)
    return int(application.run([sys.argv[0]]))
