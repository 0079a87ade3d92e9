#!/usr/bin/python3
"""A stand-in for KWin or GNOME Shell on a private session bus: it owns the desktop's name
(org.kde.KWin or org.gnome.Shell), answers KWin's org.kde.kwin.Scripting calls as KWin
does, and on a line `focus APP` from stdin calls pencil-actions' SetFocusedApp as the
shipped KWin script or GNOME Shell extension does. It prints what happens, one line each:
`ready`, `called METHOD ARGS...`, `reply ok` or `reply error NAME`.

  fake_desktop.py kde|gnome
  fake_desktop.py impostor kde|gnome

An impostor is another program of the session: it owns no name, and besides `focus APP` it
takes `forge` (it sends pencil-actions a NameOwnerChanged of its own making, which says the
desktop's name is now its own; prints `forged :1.N`)."""
import sys

from gi.repository import Gio, GLib

impostor = sys.argv[1] == "impostor"
desktop = sys.argv[2] if impostor else sys.argv[1]
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


def on_line(channel, condition):
    line = sys.stdin.readline()
    if not line or line.strip() == "quit":
        loop.quit()
        return False
    word, _, argument = line.rstrip("\n").partition(" ")
    if word == "focus":
        connection.call(*ACTIONS, "SetFocusedApp", GLib.Variant("(s)", (argument,)), None,
                        Gio.DBusCallFlags.NO_AUTO_START, 30000, None, on_reply)
    elif word == "forge" and impostor:
        forge()
    return True


def start():
    GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP, on_line)
    say("ready")


if impostor:
    start()
else:
    Gio.bus_own_name_on_connection(connection, bus_name, Gio.BusNameOwnerFlags.NONE, lambda connection, name: start(), None)
loop.run()
