"""accessibility.py: reading another process's accessibility tree (AT-SPI, with pyatspi), for
the tiers that drive a GTK window as a screen reader or a test robot does."""

from __future__ import annotations

from typing import Any, Iterator, List

import pyatspi


def walk(node: Any) -> Iterator[Any]:
    """The node and every node below it, depth first."""
    yield node
    for index in range(node.childCount):
        child = node.getChildAtIndex(index)
        if child is not None:
            yield from walk(child)


def states(node: Any) -> List[str]:
    return [pyatspi.stateToString(state) for state in node.getState().getStates()]
