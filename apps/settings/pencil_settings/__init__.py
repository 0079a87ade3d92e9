"""pencil-settings: the pen's settings, and a place to try its gestures.

A GTK 4 and libadwaita window on pencild's Python client, laid out as GNOME's settings
pages: the pens attached, what a double-tap and a squeeze do and which button makes them,
their timing, what apps receive, and a "Try it" page where each gesture appears as pencild
recognises it (and a double-tap that was missed says why, measured against the current
settings). A change is sent to pencild at once (SetPreferences); a change made elsewhere
(pencilctl) shows at once (preferencesChanged). pencild is read through the GLib main loop;
when it is not running the window says what to do, and connects when it starts.

Where to read:
  model.py         the gestures, buttons and timings as the window offers them, and what a pen lacks
  tap_watcher.py   what the Try it page says of each press (pure: no GTK)
  actions_state.py whether pencil-actions runs, and where its bindings are
  connection.py    pencild, watched in the GLib main loop
  widgets.py       the rows and groups the pages are made of
  gnome.py         GNOME's tablet settings, where GNOME is the desktop
  page.py          what a page may ask of the window
  pens.py, gestures.py, timing.py, apps.py, try_it.py   one page each (gestures.py: two)
  window.py        the window: the pages, and pencild's state and events handed to them
  app.py           the command line and the application
"""

import gi

# Before any module of the package imports gi.repository.
gi.require_version("Gtk", "4.0")
gi.require_version("Adw", "1")
