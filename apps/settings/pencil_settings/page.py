"""What a page may ask of the window it is in. Each page (pens.py, gestures.py, timing.py,
apps.py, try_it.py) is a class that builds its Adw.PreferencesPage and shows pencild's
preferences and pens on it; the window (window.py) hands it both as they change."""

from __future__ import annotations

from typing import Any, List, Protocol

import pencild

from .connection import Connection


class Window(Protocol):
    preferences: pencild.Preferences      # as pencild last said
    devices: List[pencild.Device]         # the pens attached, as pencild last said
    # True while the window shows pencild's values: a control's change is then not the person's.
    updating: bool
    connection: Connection

    def send(self, **fields: Any) -> None:
        """Sets these preferences in pencild, and shows what it answers."""

    def toast(self, text: str) -> None:
        """Says what went wrong, for a few seconds."""

    def connection_state(self) -> str:
        """The connection's state ("connected", "absent", "denied", "error"), or "" before it starts."""
