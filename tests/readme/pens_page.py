#!/usr/bin/python3
"""pens_page.py NAME: with the settings test's drive.py beside it (and tests/checks.py and
tests/accessibility.py, which it imports), waits for pencil-settings' window in the
accessibility tree, shows its Pens page and waits (30 s at most) for a label
that names the pen NAME. Prints what it found; exits 1 when the window or the pen is not
there, with the labels the window shows."""

from __future__ import annotations

import sys

import drive


def main() -> int:
    name = sys.argv[1]
    app = drive.application()  # exits, saying so, when the window does not come
    drive.show_page(app, "Pens")
    shown = drive.wait(lambda: [text for text in drive.labels(app) if name in text], 30)
    if not shown:
        print(f"the Pens page names no {name!r}; its labels: {drive.labels(app)}")
        return 1
    print(f"the Pens page shows {shown[0]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
