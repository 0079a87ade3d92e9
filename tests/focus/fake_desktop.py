#!/usr/bin/python3
"""A stand-in for KWin or GNOME Shell on a private session bus: it owns the desktop's name
(org.kde.KWin or org.gnome.Shell), answers KWin's org.kde.kwin.Scripting calls as KWin
does, and on a line `focus APP` from stdin calls pencil-actions' SetFocusedApp as the
shipped KWin script or GNOME Shell extension does. It prints what happens, one line each:
`ready`, `called METHOD ARGS...`, `reply ok` or `reply error NAME`."""
import sys

from gi.repository import Gio, GLib

desktop = sys.argv[1]
bus_name = {"kde": "org.kde.KWin", "gnome": "org.gnome.Shell"}[desktop]
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


if desktop == "kde":
    info = Gio.DBusNodeInfo.new_for_xml(SCRIPTING)
    connection.register_object("/Scripting", info.interfaces[0], on_scripting_call, None, None)


def on_reply(connection, result):
    try:
        connection.call_finish(result)
        say("reply ok")
    except GLib.Error as error:
        say(f"reply error {Gio.DBusError.get_remote_error(error)}")


def on_line(channel, condition):
    line = sys.stdin.readline()
    if not line or line.strip() == "quit":
        loop.quit()
        return False
    word, _, app = line.rstrip("\n").partition(" ")
    if word == "focus":
        connection.call("org.pencild.Actions", "/org/pencild/Actions", "org.pencild.Actions1", "SetFocusedApp",
                        GLib.Variant("(s)", (app,)), None, Gio.DBusCallFlags.NO_AUTO_START, 5000, None, on_reply)
    return True


def on_name(connection, name):
    GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP, on_line)
    say("ready")


Gio.bus_own_name_on_connection(connection, bus_name, Gio.BusNameOwnerFlags.NONE, on_name, None)
loop.run()
