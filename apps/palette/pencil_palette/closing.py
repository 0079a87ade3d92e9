"""Standard input after the request, the same on every route: a close line from
pencil-actions ({"close": "again"} or {"close": "away"}) closes the palette, its end closes it
("ended"), anything else is ignored, and a line that never ends is dropped."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Optional

STDIN = 0
CLOSE_REASONS = ("again", "away")


def close_reason(line: bytes) -> Optional[str]:
    """"again" or "away" for a close line; None for anything else, which is ignored."""
    try:
        message = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        return None
    if isinstance(message, dict) and message.get("close") in CLOSE_REASONS:
        return str(message["close"])
    return None


class ClosedByInput:
    """What a palette does with standard input: it calls `finish` (the palette's own) with a
    reply line for the reason. `pending` holds what came after the request in its reads."""

    def __init__(self, pending: bytes, max_line: int) -> None:
        self.pending = pending
        self.max_line = max_line
        self.finished = False

    def finish(self, message: Dict[str, Any]) -> None:
        raise NotImplementedError

    def stdin_ready(self, _fd: int, _condition: object) -> bool:
        """For GLib's watch of standard input: False once it need not be watched again."""
        try:
            chunk = os.read(STDIN, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            self.finish({"closed": "ended"})
            return False
        self.pending += chunk
        return not self.read_lines()

    def read_lines(self) -> bool:
        """Acts on the complete lines received; True once the palette has finished."""
        while b"\n" in self.pending and not self.finished:
            line, self.pending = self.pending.split(b"\n", 1)
            reason = close_reason(line)
            if reason is not None:
                self.finish({"closed": reason})
        if len(self.pending) > self.max_line:
            self.pending = b""
        return self.finished
