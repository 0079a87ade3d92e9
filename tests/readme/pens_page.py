#!/usr/bin/python3
"""pens_page.py NAME: waits (60 s at most) for pencil-settings' window, "Pen", in the
accessibility tree, shows its Pens page and waits (30 s at most) for a label that names the
pen NAME. Prints what it found; exits 1 when the window or the pen is not there, with the
labels the window shows."""

from __future__ import annotations

import sys
import time
from typing import Any, Callable, Iterator, List, Optional

import pyatspi


def wait(predicate: Callable[[], Any], seconds: float) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        try:
            value = predicate()
        except Exception:  # the tree changes under us: ask again
            value = None
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(0.2)


def walk(node: Any) -> Iterator[Any]:
    yield node
    for index in range(node.childCount):
        child = node.getChildAtIndex(index)
        if child is not None:
            yield from walk(child)


def window() -> Optional[Any]:
    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        app = desktop.getChildAtIndex(index)
        for child in range(app.childCount if app is not None else 0):
            frame = app.getChildAtIndex(child)
            if frame is not None and frame.getRoleName() == "frame" and frame.name == "Pen":
                return app
    return None


def labels(app: Any) -> List[str]:
    return [node.name for node in walk(app) if node.getRoleName() == "label"]


def main() -> int:
    name = sys.argv[1]
    app = wait(window, 60)
    if app is None:
        print("the window \"Pen\" did not appear in the accessibility tree")
        return 1
    for node in walk(app):
        if node.getRoleName() == "page tab" and node.name == "Pens":
            actions = node.queryAction()
            for index in range(actions.nActions):
                if actions.getName(index) == "click":
                    actions.doAction(index)
    shown = wait(lambda: [text for text in labels(app) if name in text], 30)
    if not shown:
        print(f"the Pens page names no {name!r}; its labels: {labels(app)}")
        return 1
    print(f"the Pens page shows {shown[0]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
