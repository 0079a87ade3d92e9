"""The layer-shell route, for Wayland compositors with zwlr_layer_shell_v1 (sway and the other
wlroots compositors, KWin): through gtk4-layer-shell, the window becomes a transparent surface
on the overlay layer over the whole output, with the card drawn at the pen's place and the
keyboard taken while it is open. A tap on the transparent part is a tap outside: the surface
has it, so no app does.

gtk4-layer-shell must be loaded before libwayland-client, which GTK loads: this module is
imported by routes.choose before GTK is, and loads it first."""

from __future__ import annotations

import ctypes

from .routes import Events, Route, RouteUnavailable

MISSING = ("gtk4-layer-shell is missing: install libgtk4-layer-shell0 and gir1.2-gtk4layershell-1.0 "
           "(in Debian 13 and later)")

try:
    ctypes.CDLL("libgtk4-layer-shell.so.0")
    import gi

    gi.require_version("Gtk4LayerShell", "1.0")
except (OSError, ValueError) as missing:
    raise RouteUnavailable(f"{MISSING} ({missing})") from None

from gi.repository import Gdk, Gtk  # noqa: E402
from gi.repository import Gtk4LayerShell as LayerShell  # noqa: E402

from .placement import place  # noqa: E402

NAMESPACE = "pencil-palette"


class LayerShellRoute(Route):
    name = "layer-shell"

    def attach(self, window: Gtk.Window, events: Events) -> None:
        if not LayerShell.is_supported():
            raise RouteUnavailable("the compositor offers no layer shell (zwlr_layer_shell_v1)")
        self.window = window
        self.events = events
        self.pressed_outside = False
        LayerShell.init_for_window(window)
        LayerShell.set_namespace(window, NAMESPACE)
        LayerShell.set_layer(window, LayerShell.Layer.OVERLAY)
        for edge in (LayerShell.Edge.LEFT, LayerShell.Edge.RIGHT, LayerShell.Edge.TOP, LayerShell.Edge.BOTTOM):
            LayerShell.set_anchor(window, edge, True)
        LayerShell.set_exclusive_zone(window, -1)  # over panels too, moving nothing
        LayerShell.set_keyboard_mode(window, LayerShell.KeyboardMode.EXCLUSIVE)
        # The window is the whole output, transparent; the card is its child, moved to the pen
        # with margins.
        card = window.get_child()
        window.set_child(None)
        self.card = Gtk.Box(css_classes=["palette-card"], halign=Gtk.Align.START, valign=Gtk.Align.START)
        self.card.append(card)
        window.set_child(self.card)
        window.card = self.card
        window.add_css_class("full-output")
        # The compositor gives the surface its output's size, which a window that cannot be
        # resized would refuse, staying at the card's.
        window.set_resizable(True)
        # In the capture phase: the window sees a press before a button could claim it.
        click = Gtk.GestureClick(button=0, propagation_phase=Gtk.PropagationPhase.CAPTURE)
        click.connect("pressed", self.pressed)
        click.connect("released", self.released_at)
        window.add_controller(click)
        window.connect("realize", self.realized)

    def realized(self, window: Gtk.Window) -> None:
        surface = window.get_surface()
        surface.connect("layout", self.laid_out)

    def laid_out(self, surface: Gdk.Surface, width: int, height: int) -> None:
        """The output's size, as the compositor configured the surface: the card goes to the
        pen on it, then says it is shown once drawn there. (GTK lays the surface out at the
        card's own size before the compositor's size comes: that one is no output's.)"""
        if self.released or (width, height) == self.screen or not self.is_an_output(surface, width, height):
            return
        self.screen = (width, height)
        card_width = self.card.measure(Gtk.Orientation.HORIZONTAL, -1)[1]
        card_height = self.card.measure(Gtk.Orientation.VERTICAL, card_width)[1]
        x, y = place(self.pen, (card_width, card_height), self.screen)
        self.rectangle = (x, y, card_width, card_height)
        self.card.set_margin_start(x)
        self.card.set_margin_top(y)
        if not self.announced:
            self.shown_after_next_frame(self.window)

    @staticmethod
    def is_an_output(surface: Gdk.Surface, width: int, height: int) -> bool:
        monitors = surface.get_display().get_monitors()
        for index in range(monitors.get_n_items()):
            geometry = monitors.get_item(index).get_geometry()
            if (geometry.width, geometry.height) == (width, height):
                return True
        return False

    def pressed(self, _gesture: Gtk.GestureClick, _count: int, x: float, y: float) -> None:
        self.pressed_outside = not self.inside(x, y)

    def released_at(self, _gesture: Gtk.GestureClick, _count: int, x: float, y: float) -> None:
        # On the release, as on X11: the app under the palette sees neither.
        if self.pressed_outside and not self.inside(x, y) and not self.released:
            self.events.outside()

    def release(self) -> None:
        self.released = True
