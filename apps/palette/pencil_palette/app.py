"""The command line, and the protocol on standard input and output.

Usage: pencil-palette [--route auto|x11|layer-shell|gnome-shell]

Standard input: first one request line (request.py), then at any time {"close": "again"}
or {"close": "away"}; its end closes the palette too. Standard output, one JSON object a
line: {"shown": {...}} once the palette is on screen, then {"chosen": ID} or
{"closed": "escape"|"outside"|"again"|"away"|"ended"}, and the program exits 0. A bad
request: {"error": ...} and status 2; a palette that cannot open: {"error": ...}, status 1.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from typing import Any, Dict, Tuple, Type

from .closing import STDIN, ClosedByInput
from .request import MAX_REQUEST_BYTES, Request, RequestError, parse_request
from .routes import ROUTE_NAMES, Route, RouteUnavailable, automatic, choose

EXIT_CANNOT_OPEN = 1
EXIT_BAD_REQUEST = 2


def reply(message: Dict[str, Any]) -> None:
    """One line on standard output, at once. A reader that has gone is no one to tell."""
    try:
        sys.stdout.write(json.dumps(message, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        # Nor at exit, when Python flushes standard output once more.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except ValueError:
        pass  # standard output closed


def read_request_line() -> Tuple[bytes, bytes]:
    """The first line of standard input, and what came after it in the same reads. Read
    before GTK starts: without a request there is nothing to show."""
    received = b""
    while b"\n" not in received:
        chunk = os.read(STDIN, 65536)
        if not chunk:
            if not received.strip():
                raise RequestError("request: standard input ended before a request line")
            return received, b""
        received += chunk
        if len(received.split(b"\n", 1)[0]) > MAX_REQUEST_BYTES:
            raise RequestError(f"request: longer than {MAX_REQUEST_BYTES} bytes")
    line, rest = received.split(b"\n", 1)
    return line, rest


class Palette(ClosedByInput):
    """One palette: the window on its route, standard input watched, one reply at the end."""

    def __init__(self, request: Request, route_class: Type[Route], pending: bytes) -> None:
        super().__init__(pending, MAX_REQUEST_BYTES)
        self.request = request
        self.route = route_class(request.pen)
        self.status = 0

    def run(self) -> int:
        # GTK is loaded only here, once the route has chosen GDK's backend.
        from gi.repository import Adw, Gdk, GLib

        from .window import PaletteWindow

        self.GLib = GLib
        # The name desktops and the accessibility tree give its window, not the interpreter's.
        GLib.set_prgname("pencil-palette")
        display = Gdk.Display.get_default()
        if display is None:
            reply({"error": "cannot open the palette: cannot open the display"})
            return EXIT_CANNOT_OPEN
        Adw.init()
        self.display = display
        self.loop = GLib.MainLoop()
        self.window = PaletteWindow(self.request, self.chosen, lambda: self.finish({"closed": "escape"}))
        try:
            self.route.attach(self.window, self)
        except (RouteUnavailable, OSError) as error:
            reply({"error": f"cannot open the palette: {error}"})
            return EXIT_CANNOT_OPEN
        GLib.unix_fd_add_full(GLib.PRIORITY_DEFAULT, STDIN, GLib.IOCondition.IN | GLib.IOCondition.HUP
                              | GLib.IOCondition.ERR, self.stdin_ready)
        for number in (signal.SIGINT, signal.SIGTERM):
            GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, number, self.signalled)
        if not self.read_lines():
            self.window.present()
            self.loop.run()
        return self.status

    # --- what the route and the window say ---

    def shown(self, rectangle: Tuple[int, int, int, int], screen: Tuple[int, int], route: str) -> None:
        if self.finished:
            return
        x, y, width, height = rectangle
        items = {item_id: {"x": x + left, "y": y + top, "width": item_width, "height": item_height}
                 for item_id, (left, top, item_width, item_height) in self.window.item_places().items()}
        reply({"shown": {"x": x, "y": y, "width": width, "height": height,
                         "screen": {"width": screen[0], "height": screen[1]}, "route": route, "items": items}})

    def outside(self) -> None:
        self.finish({"closed": "outside"})

    def failed(self, why: str) -> None:
        self.finish({"error": f"cannot open the palette: {why}"}, EXIT_CANNOT_OPEN)

    def chosen(self, item_id: str) -> None:
        self.finish({"chosen": item_id})

    def signalled(self) -> bool:
        self.finish({"closed": "ended"})
        return False

    # --- the end ---

    def finish(self, message: Dict[str, Any], status: int = 0) -> None:
        """Gives back the grabs and takes the palette off the screen, then replies: by then the
        app in front has its pointer and keyboard again."""
        if self.finished:
            return
        self.finished = True
        self.status = status
        self.route.release()
        self.window.destroy()
        self.display.sync()
        reply(message)
        self.loop.quit()


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="pencil-palette",
        description="The system palette: reads one request line of JSON on standard input, shows its items "
                    "at the pen, and writes what was chosen on standard output.")
    parser.add_argument("--route", choices=ROUTE_NAMES, default="auto",
                        help="how the palette gets onto the screen (default: auto, gnome-shell in a GNOME session, "
                             "else layer-shell where WAYLAND_DISPLAY is set, else x11)")
    options = parser.parse_args()
    try:
        line, rest = read_request_line()
        request = parse_request(line)
    except RequestError as error:
        reply({"error": str(error)})
        return EXIT_BAD_REQUEST
    except OSError as error:
        reply({"error": f"request: cannot read standard input: {error.strerror}"})
        return EXIT_BAD_REQUEST
    try:
        route = automatic(os.environ) if options.route == "auto" else options.route
        if route == "gnome-shell":
            from .gnome_shell import ShellPalette
            return ShellPalette(request, rest, reply, MAX_REQUEST_BYTES).run(EXIT_CANNOT_OPEN)
        route_class = choose(route, os.environ)
    except RouteUnavailable as error:
        reply({"error": f"cannot open the palette: {error}"})
        return EXIT_CANNOT_OPEN
    return Palette(request, route_class, rest).run()
