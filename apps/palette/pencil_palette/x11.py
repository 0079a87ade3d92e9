"""The X11 route: the card in an override-redirect window moved to the pen, with the pointer
and the keyboard grabbed while it is open. GTK 4 has no way to place a window or to grab a
device, so the few Xlib calls that do are made here, through ctypes, on GTK's own connection
to the X server (a grab is its connection's: GTK must receive what the grab lets through)."""

from __future__ import annotations

import ctypes
from typing import Any, Dict, List, Optional, Tuple

import gi

gi.require_version("GdkX11", "4.0")
from gi.repository import Gdk, GdkX11, GLib, GObject, Gtk  # noqa: E402

from .placement import place  # noqa: E402
from .routes import Events, Route, RouteUnavailable  # noqa: E402

# X.h
CURRENT_TIME = 0
GRAB_MODE_ASYNC = 1
GRAB_SUCCESS = 0
GRAB_STATUS = {0: "success", 1: "already grabbed", 2: "invalid time", 3: "not viewable", 4: "frozen"}
# Worth another try: another program holds the device for a moment (a button held), or the
# window is not yet viewable.
GRAB_AGAIN = {1, 3, 4}
# How long that is waited for: tries 20 ms apart.
GRAB_TRIES = 50
GRAB_RETRY_MS = 20
BUTTON_PRESS = 4
BUTTON_RELEASE = 5
BUTTON_PRESS_MASK = 1 << 2
BUTTON_RELEASE_MASK = 1 << 3
CW_OVERRIDE_REDIRECT = 1 << 9


class SetWindowAttributes(ctypes.Structure):
    _fields_ = [("background_pixmap", ctypes.c_ulong), ("background_pixel", ctypes.c_ulong),
                ("border_pixmap", ctypes.c_ulong), ("border_pixel", ctypes.c_ulong),
                ("bit_gravity", ctypes.c_int), ("win_gravity", ctypes.c_int),
                ("backing_store", ctypes.c_int), ("backing_planes", ctypes.c_ulong),
                ("backing_pixel", ctypes.c_ulong), ("save_under", ctypes.c_int),
                ("event_mask", ctypes.c_long), ("do_not_propagate_mask", ctypes.c_long),
                ("override_redirect", ctypes.c_int), ("colormap", ctypes.c_ulong),
                ("cursor", ctypes.c_ulong)]


class ButtonEvent(ctypes.Structure):
    """XButtonEvent, the start of an XEvent whose type is ButtonPress or ButtonRelease."""
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("root", ctypes.c_ulong),
                ("subwindow", ctypes.c_ulong), ("time", ctypes.c_ulong), ("x", ctypes.c_int),
                ("y", ctypes.c_int), ("x_root", ctypes.c_int), ("y_root", ctypes.c_int),
                ("state", ctypes.c_uint), ("button", ctypes.c_uint), ("same_screen", ctypes.c_int)]


class Xlib:
    """libX11 on the Display* of GTK's default display."""

    def __init__(self) -> None:
        self.lib = ctypes.CDLL("libX11.so.6")
        gtk = ctypes.CDLL("libgtk-4.so.1")
        gtk.gdk_display_get_default.restype = ctypes.c_void_p
        gtk.gdk_x11_display_get_xdisplay.restype = ctypes.c_void_p
        gtk.gdk_x11_display_get_xdisplay.argtypes = [ctypes.c_void_p]
        default = gtk.gdk_display_get_default()
        if not default:
            raise OSError("GTK has no display")
        self.display = ctypes.c_void_p(gtk.gdk_x11_display_get_xdisplay(default))
        lib = self.lib
        window = ctypes.c_ulong
        lib.XChangeWindowAttributes.argtypes = [ctypes.c_void_p, window, ctypes.c_ulong,
                                                ctypes.POINTER(SetWindowAttributes)]
        lib.XMoveWindow.argtypes = [ctypes.c_void_p, window, ctypes.c_int, ctypes.c_int]
        lib.XRaiseWindow.argtypes = [ctypes.c_void_p, window]
        lib.XGrabPointer.argtypes = [ctypes.c_void_p, window, ctypes.c_int, ctypes.c_uint, ctypes.c_int,
                                     ctypes.c_int, window, ctypes.c_ulong, ctypes.c_ulong]
        lib.XGrabKeyboard.argtypes = [ctypes.c_void_p, window, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                      ctypes.c_ulong]
        lib.XUngrabPointer.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        lib.XUngrabKeyboard.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        lib.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        lib.XFlush.argtypes = [ctypes.c_void_p]
        lib.XDefaultScreen.argtypes = [ctypes.c_void_p]
        lib.XDisplayWidth.argtypes = [ctypes.c_void_p, ctypes.c_int]
        lib.XDisplayHeight.argtypes = [ctypes.c_void_p, ctypes.c_int]

    def screen_size(self) -> Tuple[int, int]:
        screen = self.lib.XDefaultScreen(self.display)
        return int(self.lib.XDisplayWidth(self.display, screen)), int(self.lib.XDisplayHeight(self.display, screen))

    def set_override_redirect(self, xid: int) -> None:
        attributes = SetWindowAttributes(override_redirect=1)
        self.lib.XChangeWindowAttributes(self.display, xid, CW_OVERRIDE_REDIRECT, ctypes.byref(attributes))

    def move(self, xid: int, x: int, y: int) -> None:
        self.lib.XMoveWindow(self.display, xid, x, y)
        self.lib.XRaiseWindow(self.display, xid)
        self.lib.XFlush(self.display)

    def grab_pointer(self, xid: int) -> int:
        # owner_events: a press on the palette goes to GTK as ever; one anywhere else comes to
        # the palette's window as a core event, which GTK leaves alone and the route reads.
        return int(self.lib.XGrabPointer(self.display, xid, 1, BUTTON_PRESS_MASK | BUTTON_RELEASE_MASK,
                                         GRAB_MODE_ASYNC, GRAB_MODE_ASYNC, 0, 0, CURRENT_TIME))

    def grab_keyboard(self, xid: int) -> int:
        return int(self.lib.XGrabKeyboard(self.display, xid, 1, GRAB_MODE_ASYNC, GRAB_MODE_ASYNC, CURRENT_TIME))

    def ungrab(self, pointer: bool, keyboard: bool) -> None:
        if pointer:
            self.lib.XUngrabPointer(self.display, CURRENT_TIME)
        if keyboard:
            self.lib.XUngrabKeyboard(self.display, CURRENT_TIME)
        self.lib.XSync(self.display, 0)


def button_event(address: Any) -> Optional[ButtonEvent]:
    """The XButtonEvent at `address` (as GdkX11Display::xevent passes it), or None for any
    other event."""
    if not isinstance(address, int) or address == 0:
        return None
    event_type = ctypes.c_int.from_address(address).value
    if event_type not in (BUTTON_PRESS, BUTTON_RELEASE):
        return None
    return ButtonEvent.from_address(address)


class X11Route(Route):
    name = "x11"

    def attach(self, window: Gtk.Window, events: Events) -> None:
        display = window.get_display()
        if not isinstance(display, GdkX11.X11Display):
            raise RouteUnavailable("the display is not an X11 display")
        self.xlib = Xlib()
        self.window = window
        self.events = events
        self.xid = 0
        self.screen = self.xlib.screen_size()
        self.pointer_grabbed = False
        self.keyboard_grabbed = False
        self.grab_tries = 0
        self.pressed_outside = False
        self.handlers: List[Tuple[GObject.Object, int]] = [(display, display.connect("xevent", self.xevent))]
        window.connect("realize", self.realized)

    def realized(self, window: Gtk.Window) -> None:
        surface = window.get_surface()
        self.xid = int(surface.get_xid())
        # Before it maps: the X server then shows it where it is told, above every window.
        self.xlib.set_override_redirect(self.xid)
        width = window.measure(Gtk.Orientation.HORIZONTAL, -1)[1]
        height = window.measure(Gtk.Orientation.VERTICAL, width)[1]
        self.move_for(width, height)
        # Its size once laid out, should that differ from the measure.
        self.handlers.append((surface, surface.connect("layout", lambda _s, w, h: self.move_for(w, h))))
        self.handlers.append((surface, surface.connect("notify::mapped", self.mapped)))

    def move_for(self, width: int, height: int) -> None:
        if (width, height) == self.rectangle[2:]:
            return
        x, y = place(self.pen, (width, height), self.screen)
        self.rectangle = (x, y, width, height)
        self.xlib.move(self.xid, x, y)

    def mapped(self, surface: Gdk.Surface, _spec: object) -> None:
        # Not before: a window that is not yet viewable cannot be a grab's.
        if surface.get_mapped() and not self.announced and self.grab_tries == 0:
            self.try_grabs()

    def try_grabs(self) -> bool:
        """Grabs what is not yet grabbed; again in a moment while another program holds it."""
        if self.released:
            return False
        statuses: Dict[str, int] = {}
        if not self.pointer_grabbed:
            statuses["pointer"] = self.xlib.grab_pointer(self.xid)
            self.pointer_grabbed = statuses["pointer"] == GRAB_SUCCESS
        if not self.keyboard_grabbed:
            statuses["keyboard"] = self.xlib.grab_keyboard(self.xid)
            self.keyboard_grabbed = statuses["keyboard"] == GRAB_SUCCESS
        if self.pointer_grabbed and self.keyboard_grabbed:
            self.shown_after_next_frame(self.window)
            return False
        failed = {device: status for device, status in statuses.items() if status != GRAB_SUCCESS}
        self.grab_tries += 1
        if self.grab_tries < GRAB_TRIES and all(status in GRAB_AGAIN for status in failed.values()):
            GLib.timeout_add(GRAB_RETRY_MS, self.try_grabs)
            return False
        why = ", ".join(f"the {device}: {GRAB_STATUS.get(status, str(status))}" for device, status in failed.items())
        self.events.failed(f"cannot grab {why}")
        return False

    def xevent(self, _display: GdkX11.X11Display, address: object) -> bool:
        """A press and its release outside the card, which the grab brings here as core events
        (GTK reads its own windows' input as XInput 2 events, and leaves these alone). The
        palette closes on the release, so that the app sees neither."""
        event = button_event(address)
        if event is None or not self.pointer_grabbed or event.window != self.xid:
            return False
        if event.type == BUTTON_PRESS and not self.inside(event.x_root, event.y_root):
            self.pressed_outside = True
        elif event.type == BUTTON_RELEASE and self.pressed_outside:
            self.events.outside()
        return False

    def release(self) -> None:
        if self.released:
            return
        self.released = True
        for instance, handler in self.handlers:
            instance.disconnect(handler)
        self.xlib.ungrab(self.pointer_grabbed, self.keyboard_grabbed)
        self.pointer_grabbed = self.keyboard_grabbed = False
