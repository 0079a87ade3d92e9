#!/usr/bin/python3
"""A stand-in for KWin or GNOME Shell on a private session bus: it owns the desktop's name
(org.kde.KWin or org.gnome.Shell), answers KWin's org.kde.kwin.Scripting calls as KWin
does, and on a line `focus APP` from stdin calls pencil-actions' SetFocusedApp as the
shipped KWin script or GNOME Shell extension does. As GNOME Shell it answers whether the
extension runs and turns it on (org.gnome.Shell.Extensions), as `extension off|on|unknown`
from stdin last set it (off at first). It prints what happens, one line each: `ready`,
`called METHOD ARGS...`, `reply ok` or `reply error NAME`, `extension STATE`.

  fake_desktop.py kde|gnome [--report-on-arrival APP]
  fake_desktop.py impostor kde|gnome

With --report-on-arrival, the desktop reports APP as soon as pencil-actions takes its name,
as the Shell extension does (it watches the name), racing pencil-actions' own questions to
the bus.

An impostor is another program of the session: it owns no name, and besides `focus APP` it
takes `forge` (it sends pencil-actions a NameOwnerChanged of its own making, which says the
desktop's name is now its own; prints `forged :1.N`) and `flood SECONDS` (SetFocusedApp
calls as fast as it can send them for SECONDS; prints `flooding` once the first thousand
are sent and `flooded COUNT` at the end)."""
import os
import socket
import struct
import sys
import threading
import time

from gi.repository import Gio, GLib

impostor = sys.argv[1] == "impostor"
desktop = sys.argv[2] if impostor else sys.argv[1]
arrival_app = sys.argv[3] if not impostor and sys.argv[2:3] == ["--report-on-arrival"] else None
bus_name = {"kde": "org.kde.KWin", "gnome": "org.gnome.Shell"}[desktop]
ACTIONS = ("org.pencild.Actions", "/org/pencild/Actions", "org.pencild.Actions1")
SCRIPTING = """<node><interface name="org.kde.kwin.Scripting">
<method name="loadScript"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="i" direction="out"/></method>
<method name="unloadScript"><arg type="s" direction="in"/><arg type="b" direction="out"/></method>
<method name="start"/></interface></node>"""

connection = Gio.bus_get_sync(Gio.BusType.SESSION, None)
loop = GLib.MainLoop()
loaded = set()


def say(line):
    print(line, flush=True)


def on_scripting_call(connection, sender, path, interface, method, parameters, invocation):
    arguments = parameters.unpack()
    say(" ".join(["called", method, *[str(argument) for argument in arguments]]))
    if method == "loadScript":
        name = arguments[1]
        if name in loaded:
            invocation.return_value(GLib.Variant("(i)", (-1,)))
        else:
            loaded.add(name)
            invocation.return_value(GLib.Variant("(i)", (len(loaded),)))
    elif method == "unloadScript":
        invocation.return_value(GLib.Variant("(b)", (arguments[0] in loaded,)))
        loaded.discard(arguments[0])
    else:
        invocation.return_value(None)


if desktop == "kde" and not impostor:
    info = Gio.DBusNodeInfo.new_for_xml(SCRIPTING)
    connection.register_object("/Scripting", info.interfaces[0], on_scripting_call, None, None)

# GNOME Shell's extensions, as org.gnome.Shell.Extensions answers for one extension: "off"
# (known, not running: state 2), "on" (state 1) or "unknown" (an empty answer). EnableExtension
# turns it on, as the Shell does.
EXTENSIONS = """<node><interface name="org.gnome.Shell.Extensions">
<method name="GetExtensionInfo"><arg type="s" direction="in"/><arg type="a{sv}" direction="out"/></method>
<method name="EnableExtension"><arg type="s" direction="in"/><arg type="b" direction="out"/></method>
</interface></node>"""
extension_state = "off"


def on_extensions_call(connection, sender, path, interface, method, parameters, invocation):
    global extension_state
    uuid = parameters.unpack()[0]
    say(f"called {method} {uuid}")
    if method == "GetExtensionInfo":
        info = {} if extension_state == "unknown" else {
            "uuid": GLib.Variant("s", uuid), "state": GLib.Variant("d", 1.0 if extension_state == "on" else 2.0)}
        invocation.return_value(GLib.Variant("(a{sv})", (info,)))
    else:
        known = extension_state != "unknown"
        if known:
            extension_state = "on"
        invocation.return_value(GLib.Variant("(b)", (known,)))


if desktop == "gnome" and not impostor:
    info = Gio.DBusNodeInfo.new_for_xml(EXTENSIONS)
    connection.register_object("/org/gnome/Shell", info.interfaces[0], on_extensions_call, None, None)


def on_reply(connection, result):
    try:
        connection.call_finish(result)
        say("reply ok")
    except GLib.Error as error:
        say(f"reply error {Gio.DBusError.get_remote_error(error)}")


def forge():
    # What the bus itself says when a name changes hands, sent by this program straight to
    # pencil-actions: the bus puts this program's unique name in the sender field.
    me = connection.get_unique_name()
    connection.emit_signal(ACTIONS[0], "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameOwnerChanged",
                           GLib.Variant("(sss)", (bus_name, "", me)))
    say(f"forged {me}")


class RawConnection:
    """A second connection to the bus, spoken to in bytes: GDBus builds each message in
    Python, far slower than a program that means harm writes them. Messages are built once
    and sent in batches, each with its own serial (dbus-daemon takes no two alike)."""

    def __init__(self, address):
        path = dict(part.split("=", 1) for part in address.split(":", 1)[1].split(","))
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.connect(path["path"] if "path" in path else "\0" + path["abstract"])
        self.socket.sendall(b"\0AUTH EXTERNAL " + str(os.getuid()).encode().hex().encode() + b"\r\n")
        check_line = self.socket.recv(4096)
        if not check_line.startswith(b"OK "):
            raise SystemExit(f"the bus refused the flood's connection: {check_line!r}")
        self.socket.sendall(b"BEGIN\r\n")
        self.serial = 0
        self.send_batch(self.blob(Gio.DBusMessage.new_method_call("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                                  "org.freedesktop.DBus", "Hello"), 1))
        # Whatever the bus answers is read and dropped, so that it never stops on a full socket.
        threading.Thread(target=self.drain, daemon=True).start()

    def drain(self):
        while self.socket.recv(65536):
            pass

    def blob(self, message, count):
        message.set_serial(1)
        template = message.to_blob(Gio.DBusCapabilityFlags.NONE)
        parts = []
        for _ in range(count):
            self.serial += 1
            parts.append(template[:8] + struct.pack("<I" if template[:1] == b"l" else ">I", self.serial) + template[12:])
        return b"".join(parts)

    def send_batch(self, data):
        self.socket.sendall(data)


def flood(seconds):
    # Calls that expect no reply: dbus-daemon bounds the calls a connection awaits answers
    # to, and not those.
    raw = RawConnection(os.environ["DBUS_SESSION_BUS_ADDRESS"])
    call = Gio.DBusMessage.new_method_call(*ACTIONS, "SetFocusedApp")
    call.set_body(GLib.Variant("(s)", ("flood",)))
    call.set_flags(Gio.DBusMessageFlags.NO_REPLY_EXPECTED)
    batch = 256
    deadline = time.monotonic() + seconds
    count = 0
    while time.monotonic() < deadline:
        raw.send_batch(raw.blob(call, batch))
        count += batch
        if count == 4 * batch:
            say("flooding")
    say(f"flooded {count}")


def on_line(channel, condition):
    global extension_state
    line = sys.stdin.readline()
    if not line or line.strip() == "quit":
        loop.quit()
        return False
    word, _, argument = line.rstrip("\n").partition(" ")
    if word == "focus":
        connection.call(*ACTIONS, "SetFocusedApp", GLib.Variant("(s)", (argument,)), None,
                        Gio.DBusCallFlags.NO_AUTO_START, 30000, None, on_reply)
    elif word == "extension" and not impostor:
        extension_state = argument
        say(f"extension {argument}")
    elif word == "forge" and impostor:
        forge()
    elif word == "flood" and impostor:
        flood(float(argument))
    return True


def start():
    GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP, on_line)
    say("ready")


if arrival_app is not None:
    Gio.bus_watch_name_on_connection(connection, ACTIONS[0], Gio.BusNameWatcherFlags.NONE,
                                     lambda *_: connection.call(*ACTIONS, "SetFocusedApp", GLib.Variant("(s)", (arrival_app,)), None,
                                                                Gio.DBusCallFlags.NO_AUTO_START, 30000, None, on_reply), None)
if impostor:
    start()
else:
    Gio.bus_own_name_on_connection(connection, bus_name, Gio.BusNameOwnerFlags.NONE, lambda connection, name: start(), None)
loop.run()
