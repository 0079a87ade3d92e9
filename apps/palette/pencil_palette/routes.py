"""Routes: how the card's surface is placed on the screen and how it takes the pointer and
the keyboard while it is open. The card (window.py) is the same for every route.

  x11          an override-redirect window moved to the pen, with the pointer and the
               keyboard grabbed: a tap outside closes it and reaches no app
  layer-shell  Wayland compositors with zwlr_layer_shell_v1 (sway, KWin), through
               gtk4-layer-shell: a transparent overlay surface over the whole output with the
               card drawn at the pen's place, the keyboard taken while it is open
  gnome-shell  GNOME Shell draws the card itself, through pencil-actions' extension, asked
               over the session bus (gnome_shell.py: no GTK, so no Route here)

A route is chosen before GTK is loaded (`choose`), since it decides GDK's backend. The
X11 route is in x11.py, the layer-shell route in layer_shell.py."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Mapping, Optional, Protocol, Tuple, Type

if TYPE_CHECKING:
    from gi.repository import Gtk

ROUTE_NAMES = ("auto", "x11", "layer-shell", "gnome-shell")


class RouteUnavailable(Exception):
    """Why the palette cannot open by a route."""


class Events(Protocol):
    """What a route tells the palette."""

    def shown(self, rectangle: Tuple[int, int, int, int], screen: Tuple[int, int], route: str) -> None: ...

    def outside(self) -> None: ...

    def failed(self, why: str) -> None: ...


class Route:
    """One way onto the screen. `attach` is called before the window is presented; the route
    reports `shown` once the card is on screen and takes input, `outside` for a tap outside
    it; `release` gives back what it took, before the palette exits."""

    name = ""
    events: Events  # given in attach

    def __init__(self, pen: Optional[Tuple[float, float]]) -> None:
        self.pen = pen
        self.rectangle = (0, 0, 0, 0)
        self.screen = (0, 0)
        self.announced = False
        self.released = False

    def inside(self, x: float, y: float) -> bool:
        """Whether the screen point (x, y) is on the card."""
        left, top, width, height = self.rectangle
        return left <= x < left + width and top <= y < top + height

    def shown_after_next_frame(self, window: Gtk.Window) -> None:
        """`shown` once a frame has been drawn as things are now (the card placed, the input
        taken): what the person sees from then on."""
        clock = window.get_frame_clock()
        handler = 0

        def painted(_clock: object) -> None:
            clock.disconnect(handler)
            if not self.announced and not self.released:
                self.announced = True
                self.events.shown(self.rectangle, self.screen, self.name)
        handler = clock.connect("after-paint", painted)
        window.queue_draw()

    def attach(self, window: Gtk.Window, events: Events) -> None:
        raise NotImplementedError

    def release(self) -> None:
        pass


def is_gnome(environment: Mapping[str, str]) -> bool:
    """Whether the session is GNOME's (XDG_CURRENT_DESKTOP, a colon-separated list)."""
    return "GNOME" in environment.get("XDG_CURRENT_DESKTOP", "").upper().split(":")


def automatic(environment: Mapping[str, str]) -> str:
    """--route auto: the Shell on GNOME (on Wayland and X11 alike), else the layer shell on
    Wayland, else X11."""
    if is_gnome(environment):
        return "gnome-shell"
    if environment.get("WAYLAND_DISPLAY"):
        return "layer-shell"
    if environment.get("DISPLAY"):
        return "x11"
    raise RouteUnavailable("no display: neither DISPLAY nor WAYLAND_DISPLAY is set")


def require_gtk() -> None:
    """GTK 4 and libadwaita, which the GTK routes draw with, or RouteUnavailable naming the
    package that is missing (pencil-actions recommends them, and a system may leave them out)."""
    import gi
    for namespace, version, package in (("Gtk", "4.0", "gir1.2-gtk-4.0"), ("Adw", "1", "gir1.2-adw-1")):
        try:
            gi.require_version(namespace, version)
        except ValueError:
            raise RouteUnavailable(f"{namespace} {version} is not installed (apt-get install {package})") from None


def choose(name: str, environment: Mapping[str, str]) -> Type[Route]:
    """The GTK route NAME ("x11" or "layer-shell"; "auto" is resolved by `automatic` first),
    which must be ready before GTK is loaded: it sets GDK_BACKEND in `os.environ` for the
    route's backend."""
    if name == "x11":
        if not environment.get("DISPLAY"):
            raise RouteUnavailable("no X display: DISPLAY is not set")
        os.environ["GDK_BACKEND"] = "x11"
        require_gtk()
        # Only now: it loads GTK, whose backend is fixed when it is loaded.
        from .x11 import X11Route
        return X11Route
    if name == "layer-shell":
        if not environment.get("WAYLAND_DISPLAY"):
            raise RouteUnavailable("no Wayland display: WAYLAND_DISPLAY is not set")
        os.environ["GDK_BACKEND"] = "wayland"
        require_gtk()
        # Only now, and before GTK: it loads gtk4-layer-shell ahead of libwayland-client.
        from .layer_shell import LayerShellRoute
        return LayerShellRoute
    raise RouteUnavailable(f"no route {name!r}: choose from {', '.join(ROUTE_NAMES)}")
