"""The GNOME Shell route: GNOME Shell offers no program a surface above the others (no layer
shell), so the Shell draws the card itself, through pencil-actions' Shell extension
(integrations/gnome-shell, palette.js), asked over the session bus. This side only relays:
the request goes to the Shell, the Shell's `shown` and the outcome come back as the same
lines every route writes, and a close line from pencil-actions goes to the Shell.

Only the process that owns org.gnome.Shell, as the bus itself says, is asked and believed;
no GTK is loaded."""

from __future__ import annotations

import json
import signal
from typing import Any, Callable, Dict, Optional

from .closing import STDIN, ClosedByInput
from .request import Request

SHELL = "org.gnome.Shell"
PALETTE_PATH = "/org/pencild/Palette"
INTERFACE = "org.pencild.Palette1"
EXTENSION = "pencil-actions-focus@pencild.org"
# The Shell answers Show once a frame shows the card; under software rendering that can
# take seconds, and pencil-actions gives up before this anyway (--palette-wait).
SHOW_TIMEOUT_MS = 120_000
MAX_OUTCOME_BYTES = 16 * 1024


def request_text(request: Request) -> str:
    """The checked request, as the extension reads it (it checks it again)."""
    document: Dict[str, Any] = {
        "version": 1, "app": request.app, "hovering": request.hovering, "open_at": request.open_at,
        "pen": None if request.pen is None else {"x": request.pen[0], "y": request.pen[1]},
        "items": [{"id": item.id, "label": item.label, "group": item.group, "checked": item.checked} for item in request.items],
    }
    return json.dumps(document, ensure_ascii=False)


def outcome_message(text: str) -> Optional[Dict[str, Any]]:
    """The Shell's Ended outcome as a reply line, or None for anything else."""
    if len(text) > MAX_OUTCOME_BYTES:
        return None
    try:
        message = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None
    if not isinstance(message, dict) or len(message) != 1:
        return None
    if isinstance(message.get("chosen"), str):
        return {"chosen": message["chosen"]}
    if message.get("closed") in ("escape", "outside", "again", "away", "ended"):
        return {"closed": message["closed"]}
    return None


def remote_message(message: str, error_name: str) -> str:
    """A remote error's own words, without GDBus's "GDBus.Error:NAME: " before them."""
    prefix = f"GDBus.Error:{error_name}: "
    return message[len(prefix):] if error_name and message.startswith(prefix) else message


def unavailable_reason(error_name: str, message: str) -> str:
    """Why the Shell could not show it, as a person can act on it."""
    if error_name in ("org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod",
                      "org.freedesktop.DBus.Error.UnknownInterface"):
        return (f"GNOME Shell draws the palette through the extension {EXTENSION}, which is off or older than this "
                f"pencil-palette (gnome-extensions enable {EXTENSION}; after an upgrade, log in again)")
    return f"GNOME Shell did not show it ({message})"


class ShellPalette(ClosedByInput):
    """One palette drawn by the Shell: the same protocol on standard input and output as a
    GTK route's (app.py), through `reply`, with the bytes already read after the request."""

    def __init__(self, request: Request, pending: bytes, reply: Callable[[Dict[str, Any]], None], max_line: int) -> None:
        super().__init__(pending, max_line)
        self.request = request
        self.reply = reply
        self.status = 0

    def run(self, cannot_open: int) -> int:
        from gi.repository import Gio, GLib

        self.Gio, self.GLib = Gio, GLib
        self.cannot_open = cannot_open
        try:
            self.bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
            owner = self.bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
                                       GLib.Variant("(s)", (SHELL,)), GLib.VariantType("(s)"), Gio.DBusCallFlags.NONE, 10_000, None)
        except GLib.Error as error:
            self.reply({"error": f"cannot open the palette: GNOME Shell is not on the session bus ({error.message})"})
            return cannot_open
        self.shell = owner.unpack()[0]
        self.loop = GLib.MainLoop()
        # The outcome comes from the Shell's own process only, to this caller only.
        self.bus.signal_subscribe(self.shell, INTERFACE, "Ended", PALETTE_PATH, None, Gio.DBusSignalFlags.NONE,
                                  self.ended, None)
        # The Shell leaving ends the palette with it.
        Gio.bus_watch_name_on_connection(self.bus, self.shell, Gio.BusNameWatcherFlags.NONE, None,
                                         lambda *_: self.finish({"closed": "ended"}))
        GLib.unix_fd_add_full(GLib.PRIORITY_DEFAULT, STDIN, GLib.IOCondition.IN | GLib.IOCondition.HUP | GLib.IOCondition.ERR,
                              self.stdin_ready)
        for number in (signal.SIGINT, signal.SIGTERM):
            GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, number, self.signalled)
        self.bus.call(self.shell, PALETTE_PATH, INTERFACE, "Show", GLib.Variant("(s)", (request_text(self.request),)),
                      GLib.VariantType("(s)"), Gio.DBusCallFlags.NO_AUTO_START, SHOW_TIMEOUT_MS, None, self.show_answered)
        if not self.read_lines():
            self.loop.run()
        return self.status

    def show_answered(self, bus: Any, result: Any) -> None:
        try:
            answer = bus.call_finish(result)
        except self.GLib.Error as error:
            name = self.Gio.DBusError.get_remote_error(error) or ""
            self.finish({"error": f"cannot open the palette: {unavailable_reason(name, remote_message(error.message, name))}"},
                        self.cannot_open, tell_shell=False)
            return
        if self.finished:
            return
        try:
            shown = json.loads(answer.unpack()[0])
        except (json.JSONDecodeError, RecursionError):
            shown = None
        if not isinstance(shown, dict):
            self.finish({"error": "cannot open the palette: GNOME Shell's answer was not the palette's place"}, self.cannot_open)
            return
        self.reply({"shown": shown})

    def ended(self, _bus: Any, sender: str, _path: str, _interface: str, _signal: str, parameters: Any, _data: Any) -> None:
        if sender != self.shell:
            return
        message = outcome_message(parameters.unpack()[0])
        if message is not None:
            self.finish(message, tell_shell=False)

    def signalled(self) -> bool:
        self.finish({"closed": "ended"})
        return False

    def finish(self, message: Dict[str, Any], status: int = 0, tell_shell: bool = True) -> None:
        """Closes the Shell's card (waiting for its answer, so that the app in front has its
        input back before the reply), replies, and ends."""
        if self.finished:
            return
        self.finished = True
        self.status = status
        if tell_shell:
            reason = message.get("closed", "ended")
            try:
                self.bus.call_sync(self.shell, PALETTE_PATH, INTERFACE, "Close", self.GLib.Variant("(s)", (reason,)), None,
                                   self.Gio.DBusCallFlags.NO_AUTO_START, 5_000, None)
            except self.GLib.Error:
                pass  # none open (it ended as this was sent), or the Shell has gone
        self.reply(message)
        self.loop.quit()
