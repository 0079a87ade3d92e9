"""The one connection to pencild of this Krita process, shared by every window and docker."""

from __future__ import annotations

from typing import Optional

from . import actions, palette
from .link import PencildLink

_link: Optional[PencildLink] = None


def get_link() -> PencildLink:
    global _link
    if _link is None:
        # No socket given: the client finds it at each attempt ($PENCILD_SOCKET, else the
        # user's, else the system's), as pencilctl does.
        _link = PencildLink(actions.perform, palette.popup_buttons)
    return _link
