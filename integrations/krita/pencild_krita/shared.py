"""The one connection to pencild of this Krita process, shared by every window and docker."""

from __future__ import annotations

import os
from typing import Optional

from . import actions
from .link import PencildLink

_link: Optional[PencildLink] = None


def get_link() -> PencildLink:
    global _link
    if _link is None:
        _link = PencildLink(actions.perform, os.environ.get("PENCILD_SOCKET") or None)
    return _link
