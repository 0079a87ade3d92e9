"""pencil-palette: the system palette, a small card of pen tools and an app's own actions
that opens at the pen when a squeeze asks for a palette and no app shows one of its own.

pencil-actions starts it, writes one request line of JSON to its standard input and reads
its replies, one JSON object a line, from its standard output: where the palette is shown,
then the item chosen or why it closed. The palette performs nothing itself.

Where to read:
  request.py    the request: read, checked and limited (pure: no GTK)
  placement.py  where the card goes on the screen (pure)
  window.py     the card: its items as buttons, grouped; the same for every route
  routes.py     how a surface is placed and how it takes the pointer and keyboard; the
                choice of route
  x11.py        the X11 route, and the few Xlib calls it makes through ctypes
  layer_shell.py  the Wayland layer-shell route, through gtk4-layer-shell
  gnome_shell.py  the GNOME Shell route: the Shell's extension draws the card (no GTK)
  app.py        the command line, and the protocol on standard input and output
"""

import gi

# Before any module of the package imports gi.repository. One that is missing is no error
# here: the GNOME Shell route needs none of them, and a GTK route says which package to
# install (routes.require_gtk).
for _namespace, _version in (("Gtk", "4.0"), ("Gdk", "4.0"), ("Adw", "1")):
    try:
        gi.require_version(_namespace, _version)
    except ValueError:
        pass
