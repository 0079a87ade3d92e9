"""Where the card goes: centred on the pen, moved just enough to be whole on the screen."""

from __future__ import annotations

from typing import Optional, Tuple

MARGIN = 8


def place(pen: Optional[Tuple[float, float]], size: Tuple[int, int], screen: Tuple[int, int],
          margin: int = MARGIN) -> Tuple[int, int]:
    """The card's top-left corner in screen pixels. `pen` is 0..1 of the screen from its
    top-left corner (None: the screen's centre); `size` the card's, `screen` the screen's.
    A card wider or taller than the screen within its margins keeps its top or left edge
    at the margin."""
    fraction_x, fraction_y = pen if pen is not None else (0.5, 0.5)
    return (along(fraction_x * screen[0], size[0], screen[0], margin),
            along(fraction_y * screen[1], size[1], screen[1], margin))


def along(centre: float, length: int, screen_length: int, margin: int) -> int:
    start = int(round(centre - length / 2))
    return max(margin, min(start, screen_length - margin - length))
